#include "batfill/transport/remote_decision_process.hpp"

#include <sstream>
#include <stdexcept>
#include <zmq.hpp>

#include "batfill/protocol/codec.hpp"

namespace batfill::transport {

RemoteDecisionProcess::RemoteDecisionProcess(std::string endpoint,
                                             std::chrono::milliseconds timeout)
    : endpoint_(std::move(endpoint)),
      timeout_(timeout),
      context_(std::make_unique<zmq::context_t>()),
      socket_(std::make_unique<zmq::socket_t>(*context_, zmq::socket_type::req)) {
  // Never block the simulator's exit on a scheduler that stopped reading.
  socket_->set(zmq::sockopt::linger, 0);
  // A REQ socket may block on send while no peer is there; bound that by the same timeout.
  socket_->set(zmq::sockopt::sndtimeo, static_cast<int>(timeout_.count()));
  try {
    socket_->connect(endpoint_);
  } catch (const zmq::error_t& e) {
    throw std::runtime_error("cannot connect to the scheduler at " + endpoint_ + ": " + e.what());
  }
}

RemoteDecisionProcess::~RemoteDecisionProcess() = default;

protocol::Message RemoteDecisionProcess::exchange(const protocol::Message& request) {
  if (broken_) {
    throw std::runtime_error("the scheduler at " + endpoint_ + " left a request unanswered");
  }
  const std::string text = protocol::write_message(request);
  std::ostringstream seconds;
  seconds << static_cast<double>(timeout_.count()) / 1000.0 << " s";
  const std::string no_reply =
      "no reply from the scheduler at " + endpoint_ + " within " + seconds.str() + "; is it running?";
  zmq::message_t reply;
  try {
    if (!socket_->send(zmq::buffer(text), zmq::send_flags::none)) {
      broken_ = true;
      throw std::runtime_error(no_reply);
    }
    zmq::pollitem_t items[] = {{socket_->handle(), 0, ZMQ_POLLIN, 0}};
    zmq::poll(items, 1, timeout_);
    if ((items[0].revents & ZMQ_POLLIN) == 0) {
      broken_ = true;
      throw std::runtime_error(no_reply);
    }
    if (!socket_->recv(reply)) throw zmq::error_t();
  } catch (const zmq::error_t& e) {
    broken_ = true;
    throw std::runtime_error("exchange with the scheduler at " + endpoint_ + " failed: " +
                             e.what());
  }
  return protocol::parse_message(reply.to_string());
}

}  // namespace batfill::transport
