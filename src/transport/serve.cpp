#include "batfill/transport/serve.hpp"

#include <memory>
#include <sstream>
#include <zmq.hpp>

#include "batfill/adapter/responder.hpp"

namespace batfill::transport {
namespace {

std::string seconds_text(std::chrono::milliseconds duration) {
  std::ostringstream text;
  text << static_cast<double>(duration.count()) / 1000.0 << " s";
  return text.str();
}

// The next request, or the exit status when none comes.
struct Received {
  std::string text;
  int status = kServeDone;
};

Received receive(zmq::socket_t& socket, const ServeOptions& options, long index,
                 std::ostream& errors) {
  zmq::message_t request;
  try {
    zmq::pollitem_t items[] = {{socket.handle(), 0, ZMQ_POLLIN, 0}};
    zmq::poll(items, 1, options.timeout);
    if ((items[0].revents & ZMQ_POLLIN) == 0) {
      errors << "batfill serve: no message from Batsim for " << seconds_text(options.timeout)
             << " on " << options.endpoint << "; is it still running?\n";
      return {"", kServeTimeout};
    }
    if (!socket.recv(request)) throw zmq::error_t();
  } catch (const zmq::error_t& e) {
    errors << "batfill serve: receiving message #" << index << ": " << e.what() << '\n';
    return {"", kServeSocketError};
  }
  return {request.to_string(), kServeDone};
}

// The REP loop: one reply per request until SIMULATION_ENDS is answered.
int answer_until_the_end(zmq::socket_t& socket, adapter::Responder& responder,
                         const ServeOptions& options, std::ostream& errors) {
  for (long index = 0;; ++index) {
    const Received request = receive(socket, options, index, errors);
    if (request.status != kServeDone) return request.status;
    std::string reply;
    try {
      reply = responder.reply_to(request.text);
    } catch (const adapter::RequestError& e) {
      // Batsim blocks on a reply that will never come; exiting cleanly is what matters, and
      // experiment runners then stop Batsim.
      errors << "batfill serve: " << e.what() << '\n';
      return kServeProtocolError;
    }
    try {
      socket.send(zmq::buffer(reply), zmq::send_flags::none);
    } catch (const zmq::error_t& e) {
      errors << "batfill serve: replying to message #" << index << ": " << e.what() << '\n';
      return kServeSocketError;
    }
    if (responder.finished()) return kServeDone;
  }
}

}  // namespace

int serve(const ServeOptions& options, std::ostream& errors) {
  const adapter::Log log(options.verbosity, errors);
  std::unique_ptr<adapter::Responder> responder;
  try {
    responder = std::make_unique<adapter::Responder>(options.policy, options.scheduler, log);
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
  return answer_until_the_end(socket, *responder, options, errors);
}

}  // namespace batfill::transport
