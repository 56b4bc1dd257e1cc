#include "req_channel.hpp"

#include <sstream>
#include <stdexcept>

#include "endpoint.hpp"
#include "message_limit.hpp"

namespace batfill::transport {

ReqChannel::ReqChannel(std::string endpoint, std::chrono::milliseconds timeout)
    : endpoint_(std::move(endpoint)),
      timeout_(timeout),
      socket_(context_, zmq::socket_type::req) {
  // Never block the simulator's exit on a scheduler that stopped reading.
  socket_.set(zmq::sockopt::linger, 0);
  // A REQ socket may block on send while no peer is there; bound that by the same timeout.
  socket_.set(zmq::sockopt::sndtimeo, static_cast<int>(timeout_.count()));
  socket_.set(zmq::sockopt::maxmsgsize, static_cast<int64_t>(kMaxMessageBytes));
  socket_.set(zmq::sockopt::ipv6, needs_ipv6(endpoint_));
  const std::string fault = endpoint_fault(endpoint_);
  if (!fault.empty()) {
    throw std::runtime_error("cannot connect to the scheduler at " + endpoint_ + ": " + fault);
  }
  try {
    monitor_ = std::make_unique<PeerMonitor>(context_, socket_, "scheduler");
    socket_.connect(endpoint_);
  } catch (const zmq::error_t& e) {
    throw std::runtime_error("cannot connect to the scheduler at " + endpoint_ + ": " + e.what());
  }
}

ReqChannel::~ReqChannel() {
  monitor_.reset();  // before the socket it watches
}

// Waits for the reply until `timeout`, or until the monitor reports the scheduler gone.
ReqChannel::Wait ReqChannel::wait_for_reply() {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return Wait::kTimeout;
    zmq::pollitem_t items[] = {{socket_.handle(), 0, ZMQ_POLLIN, 0}, monitor_->poll_item()};
    zmq::poll(items, 2, left);
    if ((items[0].revents & ZMQ_POLLIN) != 0) return Wait::kReply;
    if ((items[1].revents & ZMQ_POLLIN) != 0 && monitor_->peer_lost()) return Wait::kPeerLost;
  }
}

std::string ReqChannel::request(std::string_view bytes) {
  if (broken_) {
    throw std::runtime_error("the scheduler at " + endpoint_ + " left a request unanswered");
  }
  std::ostringstream seconds;
  seconds << static_cast<double>(timeout_.count()) / 1000.0 << " s";
  const std::string no_reply = "no reply from the scheduler at " + endpoint_ + " within " +
                               seconds.str() + "; is it running?";
  zmq::message_t reply;
  try {
    if (!socket_.send(zmq::buffer(bytes.data(), bytes.size()), zmq::send_flags::none)) {
      broken_ = true;
      throw std::runtime_error(no_reply);
    }
    const Wait wait = wait_for_reply();
    if (wait != Wait::kReply) {
      broken_ = true;
      if (wait == Wait::kPeerLost) {
        throw std::runtime_error("the scheduler at " + endpoint_ + " closed the connection: it " +
                                 "exited or crashed, or sent a message larger than " +
                                 std::to_string(kMaxMessageBytes >> 20) + " MiB");
      }
      throw std::runtime_error(no_reply);
    }
    if (!socket_.recv(reply)) throw zmq::error_t();
  } catch (const zmq::error_t& e) {
    broken_ = true;
    throw std::runtime_error("exchange with the scheduler at " + endpoint_ +
                             " failed: " + e.what());
  }
  return reply.to_string();
}

}  // namespace batfill::transport
