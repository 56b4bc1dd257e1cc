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

class Responder {
 public:
  // Throws std::invalid_argument for an unknown policy.
  Responder(std::string policy, SchedulerOptions options, Log log,
            EventBatching batching = EventBatching::kInstant);

  // Parses the request, runs one exchange and writes the reply. Logs both at debug level as
  // "message #K: <json>" and "reply #K: <json>". Throws RequestError.
  std::string reply_to(std::string_view request);

  // SIMULATION_ENDS has been answered.
  bool finished() const { return adapter_.finished(); }

 private:
  Log log_;
  BatsimAdapter adapter_;
  // Messages are numbered from 0 like the exchanges of a Batsim capture (0 = SIMULATION_BEGINS).
  long index_ = 0;
};

}  // namespace batfill::adapter
