#include "batfill/transport/serve.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string_view>
#include <zmq.hpp>

#include "batfill/adapter/responder.hpp"
#include "batfill/protocol/codec.hpp"
#include "peer_monitor.hpp"

namespace batfill::transport {
namespace {

using Clock = std::chrono::steady_clock;

std::string seconds_text(std::chrono::milliseconds duration) {
  std::ostringstream text;
  text << static_cast<double>(duration.count()) / 1000.0 << " s";
  return text.str();
}

// The next request, or the exit status when none comes. The text is read where ZeroMQ put it.
struct Received {
  zmq::message_t message;
  int status = kServeDone;
  std::string_view text() const { return {message.data<char>(), message.size()}; }
};

// Processor time of the process (every thread, ZeroMQ's I/O thread included) or of the calling
// thread, in seconds.
struct CpuTime {
  double user = 0;
  double system = 0;
};

CpuTime cpu_time(int who) {
  rusage usage{};
  getrusage(who, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return {seconds(usage.ru_utime), seconds(usage.ru_stime)};
}

// What answering cost, per message, at the end of a run (docs/protocol.md §1.5).
void log_cost(const adapter::Log& log, long messages) {
  if (messages == 0) return;
  const CpuTime process = cpu_time(RUSAGE_SELF);
  const CpuTime thread = cpu_time(RUSAGE_THREAD);
  const auto micro = [messages](double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", 1e6 * seconds / static_cast<double>(messages));
    return std::string(text);
  };
  char totals[128];
  std::snprintf(totals, sizeof totals, "%ld messages answered; CPU %.3f s user + %.3f s sys",
                messages, process.user, process.system);
  log.info(std::string(totals) + ", per message " + micro(process.user) + " us user + " +
           micro(process.system) + " us sys (answering thread " + micro(thread.user) + " us + " +
           micro(thread.system) + " us, the rest ZeroMQ's I/O thread)");
}

// How long serve waits in a receive before looking at the monitor: a peer's death is noticed
// within this. Polling the socket and the monitor together at every message cost ZeroMQ calls
// worth more than answering the message (docs/protocol.md §1.5).
constexpr std::chrono::milliseconds kMonitorSlice(20);

// Receives the next request into `request` before `deadline`, looking at the monitor between
// slices: false when none came (`peer_lost` says whether the peer died).
bool receive_until(zmq::socket_t& socket, PeerMonitor& monitor, Clock::time_point deadline,
                   zmq::message_t& request, bool& peer_lost) {
  std::chrono::milliseconds slice = kMonitorSlice;
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    if (std::min(left, kMonitorSlice) != slice) {
      slice = std::min(left, kMonitorSlice);
      socket.set(zmq::sockopt::rcvtimeo, static_cast<int>(slice.count()));
    }
    if (socket.recv(request)) return true;
    zmq::pollitem_t events[] = {monitor.poll_item()};
    zmq::poll(events, 1, std::chrono::milliseconds(0));
    if ((events[0].revents & ZMQ_POLLIN) != 0 && monitor.peer_lost()) {
      peer_lost = true;
      return false;
    }
  }
}

Received receive(zmq::socket_t& socket, PeerMonitor& monitor, const ServeOptions& options,
                 long index, std::ostream& errors) {
  Received received;
  zmq::message_t& request = received.message;
  try {
    bool peer_lost = false;
    if (!receive_until(socket, monitor, Clock::now() + options.timeout, request, peer_lost)) {
      if (peer_lost) {
        errors << "batfill serve: Batsim closed the connection on " << options.endpoint
               << " before message #" << index << ": it exited or crashed, or sent a message "
               << "larger than " << (kMaxMessageBytes >> 20) << " MiB (docs/protocol.md §1.4)\n";
        received.status = kServeSocketError;
        return received;
      }
      errors << "batfill serve: no message from Batsim for " << seconds_text(options.timeout)
             << " on " << options.endpoint << "; is it still running?\n";
      received.status = kServeTimeout;
      return received;
    }
  } catch (const zmq::error_t& e) {
    errors << "batfill serve: receiving message #" << index << ": " << e.what() << '\n';
    received.status = kServeSocketError;
  }
  return received;
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

// The REP loop: one reply per request until SIMULATION_ENDS is answered. `index` counts the
// requests answered.
int answer_until_the_end(zmq::socket_t& socket, PeerMonitor& monitor, adapter::Responder& responder,
                         const ServeOptions& options, std::ostream& errors, long& index) {
  for (index = 0;; ++index) {
    const Received request = receive(socket, monitor, options, index, errors);
    if (request.status != kServeDone) return request.status;
    std::string reply;
    try {
      reply = responder.reply_to(request.text());
    } catch (const adapter::RequestError& e) {
      // Batsim blocks on a reply that will never come; exiting cleanly is what matters, and
      // experiment runners then stop Batsim.
      errors << "batfill serve: " << e.what() << '\n';
      stop_batsim(socket, e.what());
      return kServeProtocolError;
    }
    try {
      socket.send(zmq::buffer(reply), zmq::send_flags::none);
    } catch (const zmq::error_t& e) {
      errors << "batfill serve: replying to message #" << index << ": " << e.what() << '\n';
      return kServeSocketError;
    }
    if (responder.finished()) {
      ++index;
      return kServeDone;
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

  zmq::context_t context;
  zmq::socket_t socket(context, zmq::socket_type::rep);
  // The last reply (to SIMULATION_ENDS) must still reach Batsim after serve returns.
  socket.set(zmq::sockopt::linger, 5000);
  // ZeroMQ drops a peer that sends more; the monitor then reports it (docs/protocol.md §1.4).
  socket.set(zmq::sockopt::maxmsgsize, static_cast<int64_t>(kMaxMessageBytes));
  socket.set(zmq::sockopt::rcvtimeo, static_cast<int>(kMonitorSlice.count()));
  std::unique_ptr<PeerMonitor> monitor;
  try {
    monitor = std::make_unique<PeerMonitor>(context, socket, "serve");
    socket.bind(options.endpoint);
  } catch (const zmq::error_t& e) {
    errors << "batfill serve: cannot bind " << options.endpoint << ": " << e.what() << '\n';
    return kServeSocketError;
  }
  log.info("waiting for Batsim on " + options.endpoint);
  long answered = 0;
  const int status = answer_until_the_end(socket, *monitor, *responder, options, errors, answered);
  log_cost(log, answered);
  return status;
}

}  // namespace batfill::transport
