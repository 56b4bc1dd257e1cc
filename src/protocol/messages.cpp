#include "batfill/protocol/messages.hpp"

#include <type_traits>

namespace batfill::protocol {
namespace {

template <typename T>
constexpr const char* wire_name() {
  if constexpr (std::is_same_v<T, SimulationBegins>) return "SIMULATION_BEGINS";
  if constexpr (std::is_same_v<T, JobSubmitted>) return "JOB_SUBMITTED";
  if constexpr (std::is_same_v<T, JobCompleted>) return "JOB_COMPLETED";
  if constexpr (std::is_same_v<T, JobKilled>) return "JOB_KILLED";
  if constexpr (std::is_same_v<T, RequestedCall>) return "REQUESTED_CALL";
  if constexpr (std::is_same_v<T, BatsimNotify>) return "NOTIFY";
  if constexpr (std::is_same_v<T, EstimateWaitingTimeQuery>) return "QUERY";
  if constexpr (std::is_same_v<T, ResourceStateChanged>) return "RESOURCE_STATE_CHANGED";
  // Both directions call their reply ANSWER (notes §3.9, §4.10).
  if constexpr (std::is_same_v<T, BatsimAnswer>) return "ANSWER";
  if constexpr (std::is_same_v<T, EstimateWaitingTimeAnswer>) return "ANSWER";
  if constexpr (std::is_same_v<T, SimulationEnds>) return "SIMULATION_ENDS";
  if constexpr (std::is_same_v<T, ExecuteJob>) return "EXECUTE_JOB";
  if constexpr (std::is_same_v<T, RejectJob>) return "REJECT_JOB";
  if constexpr (std::is_same_v<T, CallMeLater>) return "CALL_ME_LATER";
}

}  // namespace

std::string event_type_name(const EventData& data) {
  return std::visit([](const auto& event) -> std::string {
    return wire_name<std::decay_t<decltype(event)>>();
  }, data);
}

}  // namespace batfill::protocol
