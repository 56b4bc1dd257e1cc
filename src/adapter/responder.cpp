#include "batfill/adapter/responder.hpp"

#include "batfill/protocol/codec.hpp"

namespace batfill::adapter {
namespace {

// A SIMULATION_BEGINS alone is a few kilobytes: enough to see what went wrong, not a flood.
std::string truncated(const std::string& message) {
  constexpr std::size_t kShown = 1000;
  if (message.size() <= kShown) return message;
  return message.substr(0, kShown) + "... (" + std::to_string(message.size()) + " bytes)";
}

}  // namespace

Responder::Responder(std::string policy, SchedulerOptions options, Log log, EventBatching batching)
    : log_(log), adapter_(std::move(policy), options, log, batching) {}

std::string Responder::reply_to(const std::string& request) {
  const std::string number = "#" + std::to_string(index_++);
  std::string reply;
  try {
    const protocol::Message message = protocol::parse_message(request);
    log_.debug("message " + number + ": " + truncated(request));
    reply = protocol::write_message(adapter_.exchange(message));
  } catch (const std::exception& e) {
    throw RequestError("message " + number + ": " + e.what() +
                       "\n  the message was: " + truncated(request));
  }
  log_.debug("reply " + number + ": " + truncated(reply));
  return reply;
}

}  // namespace batfill::adapter
