#pragma once
// One Batsim simulation answered request by request, whatever protocol carries it: the
// interface `batfill serve`'s one loop (transport/serve.hpp) calls, request text in, reply text
// out. Batsim4Session speaks Batsim 4's JSON, Batsim5Session batprotocol's JSON after Batsim 5's
// handshake; both drive one BatsimAdapter (docs/architecture.md "Sessions").

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "batfill/adapter/log.hpp"
#include "batfill/adapter/settings.hpp"
#include "batfill/protocol/protocol_error.hpp"

namespace batfill::adapter {

// A request batfill cannot answer. The text is "message #K: <what>" followed by a line with
// the offending message, truncated.
class RequestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `message` cut to its first kilobyte, for an error or a debug line.
std::string truncated_message(std::string_view message);

// One request being answered, whatever the codec: numbered from 0 like the exchanges of a
// Batsim capture (0 = SIMULATION_BEGINS).
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
  // a RequestError "message #K: <what>" followed by the request (a ProtocolError is given the
  // message number, which it shows first).
  template <typename Answer>
  std::string reply(Answer&& answer) const {
    std::string reply;
    try {
      reply = answer();
    } catch (protocol::ProtocolError& e) {
      throw RequestError(std::string(e.in_message(index_).what()) +
                         "\n  the message was: " + truncated_message(text_));
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

// The protocol a session speaks (`batfill serve --protocol`).
enum class Protocol { kBatsim4, kBatsim5 };

// "batsim4" or "batsim5"; throws std::invalid_argument otherwise.
Protocol parse_protocol(const std::string& name);

class Session {
 public:
  virtual ~Session() = default;

  // The reply to the next request. Throws RequestError when batfill cannot apply it: its text
  // names the request and what is wrong, and its first line is what stop_notice() quotes.
  virtual std::string reply_to(std::string_view request) = 0;
  // The last request (SIMULATION_ENDS, SimulationEndsEvent) has been answered.
  virtual bool finished() const = 0;
  // How errors name the next request: "message #K", or "the init message" before Batsim 5's
  // handshake.
  virtual std::string next_request() const = 0;
  // The reply to this session's pending request that makes its Batsim stop at once, quoting
  // `what`, instead of waiting forever for a reply (docs/protocol.md "Protocol errors").
  virtual std::string stop_notice(const std::string& what) const = 0;
  virtual Protocol protocol() const = 0;

  // The reply refusing `request`, the first request of another Batsim than this session's, in
  // the protocol that request speaks (the session's own when it cannot tell), so that this
  // Batsim too stops quoting `what`.
  std::string refusal(std::string_view request, const std::string& what) const;
};

// A fresh session of `protocol` with `settings`. Throws std::invalid_argument for settings
// that cannot run.
std::unique_ptr<Session> make_session(Protocol protocol, const Settings& settings, Log log);

// Whether `request` is Batsim 5's opening message: a native-endian u32 length, then exactly
// that many bytes. Never true of a Batsim 4 message: JSON text begins with whitespace or a
// bracket, whose four bytes read as a length above 500 MB, far above the 64 MiB a message may
// hold (docs/protocol.md "Peer death and message size").
bool is_batsim5_handshake(std::string_view request);

// The reply that stops a Batsim of `protocol` at once quoting `what`: Batsim 4's NOTIFY of an
// unknown type, or Batsim 5's message with an unknown field, after the handshake's flags word
// when `handshake` (docs/protocol.md "Protocol errors", "Quirks of the real 5.0.0-rc2").
std::string stop_notice_in(Protocol protocol, bool handshake, const std::string& what);

}  // namespace batfill::adapter
