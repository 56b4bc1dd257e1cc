#pragma once
// `batfill serve --protocol batsim5`: one Batsim 5 simulation answered over a request/reply
// channel, whatever carries it (docs/protocol.md §8.3). Batsim 5 opens with its own handshake:
// the first request is a native-endian u32 length and the init string's bytes; the reply is a
// native-endian u32 of format flags and a message holding the EDCHello. Every later request is
// a batprotocol JSON message, answered by one reply, up to SimulationEnds.

#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>

#include "batfill/adapter/event_batching.hpp"
#include "batfill/adapter/log.hpp"
#include "batfill/core/scheduler.hpp"

namespace batfill::adapter {

// A REP-style channel: receive one request, send its one reply.
class RequestChannel {
 public:
  enum class Received { kRequest, kTimeout, kPeerLost, kError };
  virtual ~RequestChannel() = default;
  // The next request into `request`; else why none came, with words in `problem` for kError.
  virtual Received receive(std::string& request, std::string& problem) = 0;
  // False when the peer is gone.
  virtual bool send(std::string_view reply) = 0;
  // For messages: "tcp://*:28000".
  virtual std::string name() const = 0;
};

struct Batsim5ServeSettings {
  std::string policy = "easy";
  SchedulerOptions scheduler;
  EventBatching batching = EventBatching::kInstant;
  Verbosity verbosity = Verbosity::kInfo;
};

// How a session ended; the CLI maps these onto serve's exit statuses.
enum class SessionEnd { kDone, kProtocolError, kTimeout, kChannelError };

// The init string of a handshake request; throws std::invalid_argument when the length does
// not match the bytes that follow it.
std::string_view init_of_handshake(std::string_view request);
// The handshake reply: `flags` then `hello`.
std::string handshake_reply(std::uint32_t flags, std::string_view hello);

// The reply that stops a real Batsim 5.0.0-rc2 at once with `what` in its error: a message its
// flatbuffers parser refuses, naming an unknown field that holds the error (docs/protocol.md
// §8.7). `what` is cut to 500 printable ASCII characters.
std::string batsim5_stop_notice(const std::string& what);

// Never throws: every failure is one line on `errors` and the matching SessionEnd. A bad init
// string or request is answered with batsim5_stop_notice, so Batsim stops instead of waiting.
SessionEnd serve_batsim5(RequestChannel& channel, const Batsim5ServeSettings& settings,
                         std::ostream& errors = std::cerr);

}  // namespace batfill::adapter
