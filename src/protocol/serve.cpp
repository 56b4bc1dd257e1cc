#include "batfill/protocol/serve.hpp"

#include <memory>
#include <sstream>
#include <zmq.hpp>

#include "batfill/protocol/codec.hpp"
#include "batfill/protocol/scheduler_session.hpp"

namespace batfill::protocol {
namespace {

std::string seconds_text(std::chrono::milliseconds duration) {
  std::ostringstream text;
  text << static_cast<double>(duration.count()) / 1000.0 << " s";
  return text.str();
}

// A SIMULATION_BEGINS alone is a few kilobytes: enough to see what went wrong, not a flood.
std::string truncated(const std::string& message) {
  constexpr std::size_t kShown = 1000;
  if (message.size() <= kShown) return message;
  return message.substr(0, kShown) + "... (" + std::to_string(message.size()) + " bytes)";
}

}  // namespace

int serve(const ServeOptions& options, std::ostream& errors) {
  const Log log(options.verbosity, errors);
  std::unique_ptr<BatsimScheduler> scheduler;
  try {
    scheduler = std::make_unique<BatsimScheduler>(options.policy, options.scheduler, log);
  } catch (const std::exception& e) {
    errors << "batfill serve: " << e.what() << '\n';
    return kServeProtocolError;
  }

  zmq::context_t context;
  zmq::socket_t socket(context, zmq::socket_type::rep);
  // The last reply (to SIMULATION_ENDS) must still reach Batsim after serve returns.
  socket.set(zmq::sockopt::linger, 5000);
  try {
    socket.bind(options.endpoint);
  } catch (const zmq::error_t& e) {
    errors << "batfill serve: cannot bind " << options.endpoint << ": " << e.what() << '\n';
    return kServeSocketError;
  }
  log.info("waiting for Batsim on " + options.endpoint);

  // Messages are numbered from 0 like the exchanges of a Batsim capture (0 = SIMULATION_BEGINS).
  for (long index = 0;; ++index) {
    zmq::message_t request;
    try {
      zmq::pollitem_t items[] = {{socket.handle(), 0, ZMQ_POLLIN, 0}};
      zmq::poll(items, 1, options.timeout);
      if ((items[0].revents & ZMQ_POLLIN) == 0) {
        errors << "batfill serve: no message from Batsim for " << seconds_text(options.timeout)
               << " on " << options.endpoint << "; is it still running?\n";
        return kServeTimeout;
      }
      if (!socket.recv(request)) throw zmq::error_t();
    } catch (const zmq::error_t& e) {
      errors << "batfill serve: receiving message #" << index << ": " << e.what() << '\n';
      return kServeSocketError;
    }

    const std::string text = request.to_string();
    std::string reply;
    try {
      const Message message = parse_message(text);
      log.debug("message #" + std::to_string(index) + ": " + truncated(text));
      reply = write_message(scheduler->exchange(message));
    } catch (const std::exception& e) {
      // Batsim blocks on a reply that will never come; exiting cleanly is what matters, and
      // experiment runners then stop Batsim (notes §1).
      errors << "batfill serve: message #" << index << ": " << e.what() << '\n'
             << "  the message was: " << truncated(text) << '\n';
      return kServeProtocolError;
    }

    try {
      socket.send(zmq::buffer(reply), zmq::send_flags::none);
    } catch (const zmq::error_t& e) {
      errors << "batfill serve: replying to message #" << index << ": " << e.what() << '\n';
      return kServeSocketError;
    }
    log.debug("reply #" + std::to_string(index) + ": " + truncated(reply));
    if (scheduler->finished()) return kServeDone;
  }
}

}  // namespace batfill::protocol
