#include "batfill/adapter/responder.hpp"

#include "batfill/protocol/codec.hpp"

namespace batfill::adapter {

// A SIMULATION_BEGINS alone is a few kilobytes: enough to see what went wrong, not a flood.
std::string truncated_message(std::string_view message) {
  constexpr std::size_t kShown = 1000;
  if (message.size() <= kShown) return std::string(message);
  return std::string(message.substr(0, kShown)) + "... (" + std::to_string(message.size()) +
         " bytes)";
}

Responder::Responder(std::string policy, SchedulerOptions options, Log log, EventBatching batching)
    : log_(log), adapter_(std::move(policy), options, log, batching) {}

std::string Responder::reply_to(std::string_view request) {
  const NumberedRequest numbered(log_, index_++, request);
  return numbered.reply([&] {
    const protocol::Message message = protocol::parse_message(request);
    numbered.log_parsed();
    return protocol::write_message(adapter_.exchange(message));
  });
}

}  // namespace batfill::adapter
