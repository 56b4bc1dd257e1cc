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

TypedUserFields typed_user_fields(const SubmittedJob& job) {
  if (const auto* typed = std::get_if<TypedUserFields>(&job.user_fields)) return *typed;
  // The text was a JSON object when the codec or the workload reader took it in.
  rapidjson::Document fields;
  const std::string& text = std::get<UserFieldsText>(job.user_fields).json;
  if (parse_json(fields, text).IsError() || !fields.IsObject()) return {};
  return json_fields::read_user_fields(fields);
}

}  // namespace batfill::protocol
