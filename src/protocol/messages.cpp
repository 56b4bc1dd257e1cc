#include "batfill/protocol/messages.hpp"

#include "json_fields.hpp"
#include "wire_names.hpp"

namespace batfill::protocol {

std::string event_type_name(const EventData& data) {
  return std::visit(
      [](const auto& event) -> std::string {
        return wire::event_type<std::decay_t<decltype(event)>>();
      },
      data);
}

template <typename T>
const char* event_type_name() {
  return wire::event_type<T>();
}
template const char* event_type_name<SimulationBegins>();
template const char* event_type_name<JobSubmitted>();
template const char* event_type_name<JobCompleted>();
template const char* event_type_name<JobKilled>();
template const char* event_type_name<RequestedCall>();
template const char* event_type_name<BatsimNotify>();
template const char* event_type_name<EstimateWaitingTimeQuery>();
template const char* event_type_name<ResourceStateChanged>();
template const char* event_type_name<ConsumedEnergyAnswer>();
template const char* event_type_name<SimulationEnds>();
template const char* event_type_name<ExecuteJob>();
template const char* event_type_name<RejectJob>();
template const char* event_type_name<CallMeLater>();
template const char* event_type_name<EstimateWaitingTimeAnswer>();
template const char* event_type_name<SetResourceState>();
template const char* event_type_name<ConsumedEnergyQuery>();
template const char* event_type_name<KillJob>();
template const char* event_type_name<RegisterProfile>();
template const char* event_type_name<RegisterJob>();
template const char* event_type_name<SetJobMetadata>();

std::string stop_notice_text(const std::string& what) {
  std::string text(kStopNoticePrefix);
  for (const char c : what.substr(0, 500)) {
    const bool plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    text += plain ? c : ' ';
  }
  return text;
}

TypedUserFields typed_user_fields(const SubmittedJob& job) {
  if (const auto* typed = std::get_if<TypedUserFields>(&job.user_fields)) return *typed;
  // Read for every submission of a Batsim JSON job, so in pooled buffers rather than a document
  // that allocates; the text was a JSON object when the codec or the workload reader took it
  // in, at whatever depth (it is parsed iteratively). Small buffers: the embedded simulator
  // calls this in its actor, on a stack a platform may make 16 KiB.
  return json_fields::with_pooled_document<1024, 256>(
      std::get<UserFieldsText>(job.user_fields).json,
      [](const json_fields::Value& fields, rapidjson::ParseResult parsed) {
        if (parsed.IsError() || !fields.IsObject()) return TypedUserFields{};
        return json_fields::read_user_fields(fields);
      });
}

}  // namespace batfill::protocol
