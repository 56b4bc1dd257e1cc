#pragma once
// The protocol side of `batfill serve`: each request text from Batsim gets its reply text from
// one BatsimAdapter, through the JSON codec. The transport (ZeroMQ) only moves the texts.

#include <stdexcept>
#include <string>
#include <string_view>

#include "batfill/adapter/batsim_adapter.hpp"
#include "batfill/adapter/log.hpp"

namespace batfill::adapter {

// A request batfill cannot answer. The text is "message #K: <what>" followed by a line with
// the offending message, truncated.
class RequestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `message` cut to its first kilobyte, for an error or a debug line.
std::string truncated_message(std::string_view message);

// One request being answered, whatever the codec (Responder, Batsim5Responder): numbered from 0
// like the exchanges of a Batsim capture (0 = SIMULATION_BEGINS).
class NumberedRequest {
 public:
  NumberedRequest(const Log& log, long index, std::string_view text)
      : log_(log), index_(index), text_(text) {}

  // "#K". Built only when a line is shown: this runs for every message.
  std::string number() const { return "#" + std::to_string(index_); }
  // "message #K: <json>" at debug level, once the request has parsed.
  void log_parsed() const {
    if (log_.debugging()) log_.debug("message " + number() + ": " + truncated_message(text_));
  }

  // The reply `answer()` makes (it parses the request, calls log_parsed(), runs one exchange and
  // writes the reply), logged at debug level as "reply #K: <json>". Whatever it throws becomes
  // a RequestError "message #K: <what>" followed by the request.
  template <typename Answer>
  std::string reply(Answer&& answer) const {
    std::string reply;
    try {
      reply = answer();
    } catch (const std::exception& e) {
      throw RequestError("message " + number() + ": " + e.what() +
                         "\n  the message was: " + truncated_message(text_));
    }
    if (log_.debugging()) log_.debug("reply " + number() + ": " + truncated_message(reply));
    return reply;
  }

 private:
  const Log& log_;
  long index_;
  std::string_view text_;
};

class Responder {
 public:
  // Throws std::invalid_argument for an unknown policy.
  Responder(std::string policy, SchedulerOptions options, Log log,
            EventBatching batching = EventBatching::kInstant);

  // Parses the request, runs one exchange and writes the reply, as NumberedRequest logs and
  // reports it. Throws RequestError.
  std::string reply_to(std::string_view request);

  // SIMULATION_ENDS has been answered.
  bool finished() const { return adapter_.finished(); }

 private:
  Log log_;
  BatsimAdapter adapter_;
  long index_ = 0;  // the next request's number (NumberedRequest)
};

}  // namespace batfill::adapter
