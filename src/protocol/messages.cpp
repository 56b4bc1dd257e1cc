#include "batfill/protocol/messages.hpp"

#include "wire_names.hpp"

namespace batfill::protocol {

std::string event_type_name(const EventData& data) {
  return std::visit(
      [](const auto& event) -> std::string {
        return wire::event_type<std::decay_t<decltype(event)>>();
      },
      data);
}

}  // namespace batfill::protocol
