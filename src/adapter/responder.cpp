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
  const long index = index_++;
  // Log lines are built only when shown: this runs for every message.
  const auto number = [index] { return "#" + std::to_string(index); };
  std::string reply;
  try {
    const protocol::Message message = protocol::parse_message(request);
    if (log_.debugging()) log_.debug("message " + number() + ": " + truncated_message(request));
    reply = protocol::write_message(adapter_.exchange(message));
  } catch (const std::exception& e) {
    throw RequestError("message " + number() + ": " + e.what() +
                       "\n  the message was: " + truncated_message(request));
  }
  if (log_.debugging()) log_.debug("reply " + number() + ": " + truncated_message(reply));
  return reply;
}

}  // namespace batfill::adapter
