#include "batfill/transport/serve.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <zmq.hpp>

#include "batfill/adapter/responder.hpp"
#include "batfill/protocol/codec.hpp"
#include "endpoint.hpp"
#include "message_limit.hpp"
#include "peer_monitor.hpp"

namespace batfill::transport {
namespace {

using Clock = std::chrono::steady_clock;

std::string seconds_text(std::chrono::milliseconds duration) {
  std::ostringstream text;
  text << static_cast<double>(duration.count()) / 1000.0 << " s";
  return text.str();
}

// Processor time of the process, in seconds.
struct CpuTime {
  double user = 0;
  double system = 0;
};

CpuTime cpu_time() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return {seconds(usage.ru_utime), seconds(usage.ru_stime)};
}

// What answering cost, per message, at the end of a run (docs/protocol.md §1.5).
void log_cost(const adapter::Log& log, long messages) {
  if (messages == 0) return;
  const CpuTime process = cpu_time();
  const auto micro = [messages](double seconds) {
    return 1e6 * seconds / static_cast<double>(messages);
  };
  char text[160];
  std::snprintf(text, sizeof text,
                "%ld messages answered; CPU %.3f s user + %.3f s sys, per message %.1f us user + "
                "%.1f us sys",
                messages, process.user, process.system, micro(process.user), micro(process.system));
  log.info(text);
}

// How long one receive waits before serve looks at the monitor: a peer's death is noticed
// within this. Polling the socket and the monitor together at every message would cost more
// ZeroMQ calls than answering the message (docs/protocol.md §1.5).
constexpr std::chrono::milliseconds kMonitorSlice(20);

// serve's end of the connection: a REP socket bound to the endpoint, and the monitor that sees
// its peer go (docs/protocol.md §1.4). Members go in reverse order: the monitor before the socket
// it watches, the socket before its context.
struct ReplySocket {
  // Throws zmq::error_t when the endpoint cannot be bound.
  explicit ReplySocket(const std::string& endpoint);
  // Waits for the receive timeout `wait` at most (the monitor slice, or less before a deadline).
  void wait_at_most(std::chrono::milliseconds wait);

  zmq::context_t context;
  zmq::socket_t socket{context, zmq::socket_type::rep};
  std::unique_ptr<PeerMonitor> monitor;
  std::chrono::milliseconds receive_timeout = kMonitorSlice;
};

ReplySocket::ReplySocket(const std::string& endpoint) {
  // The last reply (to SIMULATION_ENDS) must still reach Batsim after serve returns.
  socket.set(zmq::sockopt::linger, 5000);
  // ZeroMQ drops a peer that sends more; the monitor then reports it (docs/protocol.md §1.4).
  socket.set(zmq::sockopt::maxmsgsize, static_cast<int64_t>(kMaxMessageBytes));
  socket.set(zmq::sockopt::rcvtimeo, static_cast<int>(receive_timeout.count()));
  socket.set(zmq::sockopt::ipv6, needs_ipv6(endpoint));
  monitor = std::make_unique<PeerMonitor>(context, socket, "serve");
  socket.bind(endpoint);
}

void ReplySocket::wait_at_most(std::chrono::milliseconds wait) {
  if (wait == receive_timeout) return;
  receive_timeout = wait;
  socket.set(zmq::sockopt::rcvtimeo, static_cast<int>(wait.count()));
}

enum class Wait { kRequest, kTimeout, kPeerLost };

// Receives the next request into `request` before `deadline`, looking at the monitor between
// slices.
Wait receive_until(ReplySocket& end, Clock::time_point deadline, zmq::message_t& request) {
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return Wait::kTimeout;
    end.wait_at_most(std::min(left, kMonitorSlice));
    if (end.socket.recv(request)) return Wait::kRequest;
    if (end.monitor->peer_lost()) return Wait::kPeerLost;
  }
}

// The next request into `request`; the exit status instead when none comes.
std::optional<int> receive(ReplySocket& end, const ServeOptions& options, long index,
                           zmq::message_t& request, std::ostream& errors) {
  try {
    switch (receive_until(end, Clock::now() + options.timeout, request)) {
      case Wait::kRequest:
        return std::nullopt;
      case Wait::kPeerLost:
        errors << "batfill serve: Batsim closed the connection on " << options.endpoint
               << " before message #" << index << ": it exited or crashed, or sent a message "
               << "larger than " << (kMaxMessageBytes >> 20) << " MiB (docs/protocol.md §1.4)\n";
        return kServeSocketError;
      case Wait::kTimeout:
        break;
    }
    errors << "batfill serve: no message from Batsim for " << seconds_text(options.timeout)
           << " on " << options.endpoint << "; is it still running?\n";
    return kServeTimeout;
  } catch (const zmq::error_t& e) {
    errors << "batfill serve: receiving message #" << index << ": " << e.what() << '\n';
    return kServeSocketError;
  }
}

// How many parts the request whose first part is `first` has; reads and drops the others, so
// that the REP socket may reply. libzmq delivers a message's parts together: none is waited for.
long count_parts(zmq::socket_t& socket, const zmq::message_t& first) {
  long parts = 1;
  zmq::message_t part;
  try {
    for (bool more = first.more(); more && socket.recv(part); more = part.more()) ++parts;
  } catch (const zmq::error_t&) {
    // The socket failed: the reply that follows reports it.
  }
  return parts;
}

// Batsim has no timeout of its own: left without a reply it would wait forever. This reply
// makes it abort at once, quoting the error (docs/protocol.md §3.11); the socket's linger
// delivers it. The first line of the error only: the offending message follows it.
void stop_batsim(zmq::socket_t& socket, const std::string& error) {
  try {
    const std::string notice = protocol::write_stop_notice(error.substr(0, error.find('\n')));
    socket.send(zmq::buffer(notice), zmq::send_flags::none);
  } catch (const zmq::error_t&) {
    // Batsim is gone: nothing left to stop.
  }
}

// The reply to `request` (message #`index`), or the exit status in `failed` when batfill cannot
// apply it.
std::string reply_to(zmq::socket_t& socket, adapter::Responder& responder,
                     const zmq::message_t& request, long index, std::ostream& errors,
                     std::optional<int>& failed) {
  std::string error;
  try {
    const long parts = count_parts(socket, request);
    if (parts == 1) return responder.reply_to({request.data<char>(), request.size()});
    error = "message #" + std::to_string(index) + " is in " + std::to_string(parts) +
            " parts: Batsim sends each request as one (docs/protocol.md §1.1)";
  } catch (const adapter::RequestError& e) {
    error = e.what();
  }
  // Batsim blocks on a reply that will never come; exiting cleanly is what matters, and
  // experiment runners then stop Batsim.
  errors << "batfill serve: " << error << '\n';
  stop_batsim(socket, error);
  failed = kServeProtocolError;
  return "";
}

// The REP loop: one reply per request until SIMULATION_ENDS is answered. `index` counts the
// requests answered.
int answer_until_the_end(ReplySocket& end, adapter::Responder& responder,
                         const ServeOptions& options, std::ostream& errors, long& index) {
  zmq::message_t request;
  for (index = 0;; ++index) {
    std::optional<int> failed = receive(end, options, index, request, errors);
    if (failed) return *failed;
    const std::string reply = reply_to(end.socket, responder, request, index, errors, failed);
    if (failed) return *failed;
    try {
      end.socket.send(zmq::buffer(reply), zmq::send_flags::none);
    } catch (const zmq::error_t& e) {
      errors << "batfill serve: replying to message #" << index << ": " << e.what() << '\n';
      return kServeSocketError;
    }
    if (responder.finished()) {
      ++index;
      return kServeEnded;
    }
  }
}

}  // namespace

int serve(const ServeOptions& options, std::ostream& errors) {
  const adapter::Log log(options.verbosity, errors);
  std::unique_ptr<adapter::Responder> responder;
  try {
    responder = std::make_unique<adapter::Responder>(options.policy, options.scheduler, log,
                                                     options.batching);
  } catch (const std::exception& e) {
    errors << "batfill serve: " << e.what() << '\n';
    return kServeProtocolError;
  }

  std::unique_ptr<ReplySocket> end;
  try {
    const std::string fault = endpoint_fault(options.endpoint);
    if (!fault.empty()) throw std::invalid_argument(fault);
    end = std::make_unique<ReplySocket>(options.endpoint);
  } catch (const std::exception& e) {
    errors << "batfill serve: cannot bind " << options.endpoint << ": " << e.what() << '\n';
    return kServeSocketError;
  }
  log.info("waiting for Batsim on " + options.endpoint);
  long answered = 0;
  const int status = answer_until_the_end(*end, *responder, options, errors, answered);
  log_cost(log, answered);
  return status;
}

}  // namespace batfill::transport
