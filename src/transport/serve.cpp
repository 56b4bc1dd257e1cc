#include "batfill/transport/serve.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <memory>
#include <sstream>

#include "batfill/adapter/responder.hpp"
#include "batfill/protocol/codec.hpp"
#include "message_limit.hpp"
#include "zmtp_reply_socket.hpp"

namespace batfill::transport {
namespace {

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

// `when` is "before message #K" or "while replying to message #K".
void report_peer_lost(const ServeOptions& options, const std::string& when, std::ostream& errors) {
  errors << "batfill serve: Batsim closed the connection on " << options.endpoint << " " << when
         << ": it exited or crashed (docs/protocol.md §1.4)\n";
}

// The next request into `socket.request()`: kServeDone, or the exit status when none comes.
int receive(ZmtpReplySocket& socket, const ServeOptions& options, long index,
            std::ostream& errors) {
  try {
    switch (socket.receive()) {
      case ZmtpReplySocket::Received::kRequest:
        return kServeDone;
      case ZmtpReplySocket::Received::kPeerLost:
        report_peer_lost(options, "before message #" + std::to_string(index), errors);
        return kServeSocketError;
      case ZmtpReplySocket::Received::kTooLarge:
        errors << "batfill serve: message #" << index << " from " << options.endpoint
               << " is larger than " << (kMaxMessageBytes >> 20)
               << " MiB (all its frames together): the connection is dropped "
                  "(docs/protocol.md §1.4)\n";
        return kServeSocketError;
      case ZmtpReplySocket::Received::kTimeout:
        break;
    }
    errors << "batfill serve: no message from Batsim for " << seconds_text(options.timeout)
           << " on " << options.endpoint << "; is it still running?\n";
    return kServeTimeout;
  } catch (const ZmtpError& e) {
    errors << "batfill serve: receiving message #" << index << ": " << e.what() << '\n';
    return kServeSocketError;
  }
}

// Batsim has no timeout of its own: left without a reply it would wait forever. This reply
// makes it abort at once, quoting the error (docs/protocol.md §3.11). The first line of the
// error only: the offending message follows it.
void stop_batsim(ZmtpReplySocket& socket, const std::string& error) {
  try {
    (void)socket.send(protocol::write_stop_notice(error.substr(0, error.find('\n'))));
  } catch (const ZmtpError&) {
    // Batsim is gone: nothing left to stop.
  }
}

// The REP loop: one reply per request until SIMULATION_ENDS is answered. `index` counts the
// requests answered.
int answer_until_the_end(ZmtpReplySocket& socket, adapter::Responder& responder,
                         const ServeOptions& options, std::ostream& errors, long& index) {
  for (index = 0;; ++index) {
    const int received = receive(socket, options, index, errors);
    if (received != kServeDone) return received;
    std::string reply;
    try {
      reply = responder.reply_to(socket.request());
    } catch (const adapter::RequestError& e) {
      // Batsim blocks on a reply that will never come; exiting cleanly is what matters, and
      // experiment runners then stop Batsim.
      errors << "batfill serve: " << e.what() << '\n';
      stop_batsim(socket, e.what());
      return kServeProtocolError;
    }
    try {
      if (!socket.send(reply)) {
        report_peer_lost(options, "while replying to message #" + std::to_string(index), errors);
        return kServeSocketError;
      }
    } catch (const ZmtpError& e) {
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

  std::unique_ptr<ZmtpReplySocket> socket;
  try {
    socket = std::make_unique<ZmtpReplySocket>(options.endpoint, options.timeout,
                                               static_cast<std::size_t>(kMaxMessageBytes));
  } catch (const ZmtpError& e) {
    errors << "batfill serve: cannot bind " << options.endpoint << ": " << e.what() << '\n';
    return kServeSocketError;
  }
  log.info("waiting for Batsim on " + options.endpoint);
  long answered = 0;
  const int status = answer_until_the_end(*socket, *responder, options, errors, answered);
  log_cost(log, answered);
  return status;
}

}  // namespace batfill::transport
