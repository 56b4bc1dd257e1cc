#include "batfill/transport/serve.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <csignal>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <zmq.hpp>

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

// What answering cost, per message, at the end of a run (docs/protocol.md#what-a-message-costs).
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
// ZeroMQ calls than answering the message (docs/protocol.md#what-a-message-costs).
constexpr std::chrono::milliseconds kMonitorSlice(20);

// serve's end of the connection: a REP socket bound to the endpoint, and the monitor that sees
// its peer go (docs/protocol.md#peer-death-and-message-size). Members go in reverse order: the
// monitor before the socket it watches, the socket before its context.
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
  // ZeroMQ drops a peer that sends more; the monitor then reports it
  // (docs/protocol.md#peer-death-and-message-size).
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

// SIGINT and SIGTERM while serve runs: counted, so that serve answers Batsim's pending
// request with a stop notice before it exits instead of leaving Batsim waiting forever.
volatile std::sig_atomic_t caught_signal = 0;
volatile std::sig_atomic_t signal_count = 0;

extern "C" void note_signal(int number) {
  caught_signal = number;
  signal_count = signal_count + 1;
}

// Installs note_signal for SIGINT and SIGTERM while it lives. Without SA_RESTART: a blocking
// call returns, and the loop looks at the count.
class SignalWatch {
 public:
  SignalWatch() {
    caught_signal = 0;
    signal_count = 0;
    struct sigaction action {};
    action.sa_handler = note_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous_interrupt_);
    sigaction(SIGTERM, &action, &previous_terminate_);
  }
  ~SignalWatch() {
    sigaction(SIGINT, &previous_interrupt_, nullptr);
    sigaction(SIGTERM, &previous_terminate_, nullptr);
  }
  SignalWatch(const SignalWatch&) = delete;
  SignalWatch& operator=(const SignalWatch&) = delete;

  int count() const { return signal_count; }
  int last() const { return caught_signal; }

 private:
  struct sigaction previous_interrupt_ {};
  struct sigaction previous_terminate_ {};
};

// How long serve, interrupted, still waits for the request of a Batsim busy simulating, to stop
// it (docs/protocol.md "Timeouts and exit statuses of batfill serve").
constexpr std::chrono::milliseconds kGraceAfterSignal(10'000);

std::string signal_name(int number) {
  if (number == SIGINT) return "SIGINT";
  if (number == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(number);
}

enum class Wait { kRequest, kTimeout, kPeerLost, kSignal };

// The one loop: one reply per request of the first Batsim to speak, until its session is
// finished. Requests of any other peer are refused.
class ServeLoop {
 public:
  ServeLoop(ReplySocket& end, adapter::Session& session, const ServeOptions& options,
            std::ostream& errors)
      : end_(end), session_(session), options_(options), errors_(errors) {}

  int run();
  long answered() const { return answered_; }

 private:
  Wait receive_until(Clock::time_point deadline, int signals_seen);
  std::optional<int> receive();
  bool from_batsim();
  long count_parts();
  std::optional<int> answer();
  int stop_batsim(const std::string& error, int status);
  int interrupted();
  void refuse_stranger();
  bool send(const std::string& reply);

  ReplySocket& end_;
  adapter::Session& session_;
  const ServeOptions& options_;
  std::ostream& errors_;
  SignalWatch signals_;
  zmq::message_t request_;
  int batsim_ = -1;  // the connection Batsim's requests come on, once one came
  long answered_ = 0;
};

// Receives the next request before `deadline`, looking at the monitor between slices and at
// the signals after each.
Wait ServeLoop::receive_until(Clock::time_point deadline, int signals_seen) {
  while (true) {
    if (signals_.count() > signals_seen) return Wait::kSignal;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return Wait::kTimeout;
    end_.wait_at_most(std::min(left, kMonitorSlice));
    try {
      if (end_.socket.recv(request_)) return Wait::kRequest;
    } catch (const zmq::error_t& e) {
      if (e.num() != EINTR) throw;
      continue;
    }
    if (end_.monitor->peer_lost()) return Wait::kPeerLost;
  }
}

// The next request into request_; the exit status instead when none comes.
std::optional<int> ServeLoop::receive() {
  try {
    switch (receive_until(Clock::now() + options_.timeout, 0)) {
      case Wait::kRequest:
        return std::nullopt;
      case Wait::kSignal:
        return interrupted();
      case Wait::kPeerLost:
        errors_ << "batfill serve: Batsim closed the connection on " << options_.endpoint
                << " before " << session_.next_request() << ": it exited or crashed, or sent "
                << "a message larger than " << (kMaxMessageBytes >> 20)
                << " MiB (docs/protocol.md#peer-death-and-message-size)\n";
        return kServeSocketError;
      case Wait::kTimeout:
        break;
    }
    errors_ << "batfill serve: no message from Batsim for " << seconds_text(options_.timeout)
            << " on " << options_.endpoint << "; is it still running?\n";
    return kServeTimeout;
  } catch (const zmq::error_t& e) {
    errors_ << "batfill serve: receiving " << session_.next_request() << ": " << e.what() << '\n';
    return kServeSocketError;
  }
}

// Whether request_ came from Batsim: the first request names its connection, which the monitor
// then follows; any other connection is another peer.
bool ServeLoop::from_batsim() {
  const int connection = zmq_msg_get(request_.handle(), ZMQ_SRCFD);
  if (batsim_ < 0) {
    batsim_ = connection;
    end_.monitor->follow(connection);
  }
  return connection == batsim_;
}

// How many parts request_ has; reads and drops the others, so that the REP socket may reply.
// libzmq delivers a message's parts together: none is waited for.
long ServeLoop::count_parts() {
  long parts = 1;
  zmq::message_t part;
  try {
    for (bool more = request_.more(); more && end_.socket.recv(part); more = part.more()) ++parts;
  } catch (const zmq::error_t&) {
    // The socket failed: the reply that follows reports it.
  }
  return parts;
}

bool ServeLoop::send(const std::string& reply) {
  try {
    end_.socket.send(zmq::buffer(reply), zmq::send_flags::none);
    return true;
  } catch (const zmq::error_t& e) {
    errors_ << "batfill serve: replying to " << session_.next_request() << ": " << e.what() << '\n';
    return false;
  }
}

// Batsim has no timeout of its own: left without a reply it would wait forever. This reply
// makes it abort at once, quoting the error (docs/protocol.md#protocol-errors); the socket's linger
// delivers it. The first line of the error only: the offending message follows it.
int ServeLoop::stop_batsim(const std::string& error, int status) {
  errors_ << "batfill serve: " << error << '\n';
  try {
    end_.socket.send(zmq::buffer(session_.stop_notice(error.substr(0, error.find('\n')))),
                     zmq::send_flags::none);
  } catch (const zmq::error_t&) {
    // Batsim is gone: nothing left to stop.
  }
  return status;
}

// Another Batsim on the port: it gets a refusal in its own protocol, and Batsim goes on.
void ServeLoop::refuse_stranger() {
  const std::string what = "batfill serve on " + options_.endpoint +
                           " already answers another Batsim: start one batfill serve per Batsim";
  errors_ << "batfill serve: refused a second Batsim: " << what << '\n';
  count_parts();
  const std::string request(request_.data<char>(), request_.size());
  try {
    end_.socket.send(zmq::buffer(session_.refusal(request, what)), zmq::send_flags::none);
  } catch (const zmq::error_t&) {
    // That peer is gone already.
  }
}

// A signal came while serve waited: Batsim, busy simulating, is stopped at its next request
// if it comes within kGraceAfterSignal; a second signal, or no Batsim yet, ends serve at once.
int ServeLoop::interrupted() {
  const int status = kServeInterrupted + signals_.last();
  const std::string what = "batfill serve was interrupted by " + signal_name(signals_.last());
  if (batsim_ < 0) {
    errors_ << "batfill serve: " << what << '\n';
    return status;
  }
  errors_ << "batfill serve: " << what << "; waiting up to " << seconds_text(kGraceAfterSignal)
          << " for Batsim's next request, to stop it (a second signal ends serve at once)\n";
  const auto deadline = Clock::now() + std::min(kGraceAfterSignal, options_.timeout);
  while (receive_until(deadline, 1) == Wait::kRequest) {
    if (!from_batsim()) {
      refuse_stranger();
      continue;
    }
    count_parts();
    return stop_batsim(what + " before answering " + session_.next_request(), status);
  }
  return status;
}

// Answers request_, Batsim's; the exit status when serve ends here.
std::optional<int> ServeLoop::answer() {
  const long parts = count_parts();
  if (parts != 1) {
    return stop_batsim(session_.next_request() + " is in " + std::to_string(parts) +
                           " parts: Batsim sends each request as one (docs/protocol.md#sockets)",
                       kServeProtocolError);
  }
  std::string reply;
  try {
    reply = session_.reply_to({request_.data<char>(), request_.size()});
  } catch (const adapter::RequestError& e) {
    return stop_batsim(e.what(), kServeProtocolError);
  }
  if (signals_.count() > 0 && !session_.finished()) {
    const std::string what = "batfill serve was interrupted by " + signal_name(signals_.last());
    return stop_batsim(what, kServeInterrupted + signals_.last());
  }
  if (!send(reply)) return kServeSocketError;
  ++answered_;
  if (session_.finished()) return kServeEnded;
  return std::nullopt;
}

int ServeLoop::run() {
  while (true) {
    if (const std::optional<int> status = receive()) return *status;
    if (!from_batsim()) {
      refuse_stranger();
      continue;
    }
    if (const std::optional<int> status = answer()) return *status;
  }
}

}  // namespace

int serve(const ServeOptions& options, std::ostream& errors) {
  const adapter::Log log(options.verbosity, errors);
  std::unique_ptr<adapter::Session> session;
  try {
    session = adapter::make_session(options.protocol, options.settings, log);
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
  ServeLoop loop(*end, *session, options, errors);
  const int status = loop.run();
  log_cost(log, loop.answered());
  return status;
}

}  // namespace batfill::transport
