#include "zmq_request_channel.hpp"

#include <zmq.hpp>

#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace batfill::cli {

struct ZmqRequestChannel::Sockets {
  zmq::context_t context;
  zmq::socket_t reply{context, zmq::socket_type::rep};
  zmq::socket_t monitor{context, zmq::socket_type::pair};
};

namespace {

// One monitor address per channel object: a process may serve twice (tests).
std::string monitor_address(const void* channel) {
  return "inproc://batfill-batsim5-monitor-" + std::to_string(reinterpret_cast<std::uintptr_t>(channel));
}

}  // namespace

ZmqRequestChannel::ZmqRequestChannel(std::string endpoint, std::chrono::milliseconds timeout)
    : endpoint_(std::move(endpoint)), timeout_(timeout), sockets_(std::make_unique<Sockets>()) {
  try {
    sockets_->reply.set(zmq::sockopt::linger, 0);
    const std::string address = monitor_address(this);
    if (zmq_socket_monitor(sockets_->reply.handle(), address.c_str(),
                           ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED) != 0) {
      throw zmq::error_t();
    }
    sockets_->monitor.set(zmq::sockopt::linger, 0);
    sockets_->monitor.connect(address);
    sockets_->reply.bind(endpoint_);
  } catch (const zmq::error_t& e) {
    throw std::runtime_error("cannot bind " + endpoint_ + ": " + e.what());
  }
}

ZmqRequestChannel::~ZmqRequestChannel() {
  zmq_socket_monitor(sockets_->reply.handle(), nullptr, 0);
}

// Waits in the poll for a request or a monitor event: a peer that closes its connection is
// noticed at once, a silent one after the timeout.
ZmqRequestChannel::Received ZmqRequestChannel::receive(std::string& request,
                                                       std::string& problem) {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  try {
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return Received::kTimeout;
      zmq::pollitem_t items[] = {{sockets_->reply.handle(), 0, ZMQ_POLLIN, 0},
                                 {sockets_->monitor.handle(), 0, ZMQ_POLLIN, 0}};
      zmq::poll(items, 2, left);
      if (items[1].revents & ZMQ_POLLIN) {
        zmq::message_t event;
        zmq::message_t address;
        (void)sockets_->monitor.recv(event);
        (void)sockets_->monitor.recv(address);
        std::uint16_t kind = 0;
        std::memcpy(&kind, event.data(), sizeof kind);
        if (kind == ZMQ_EVENT_ACCEPTED) {
          ++peers_;
          had_peer_ = true;
        } else if (kind == ZMQ_EVENT_DISCONNECTED && --peers_ <= 0 && had_peer_) {
          return Received::kPeerLost;
        }
      }
      if (items[0].revents & ZMQ_POLLIN) {
        zmq::message_t message;
        (void)sockets_->reply.recv(message);
        request.assign(static_cast<const char*>(message.data()), message.size());
        return Received::kRequest;
      }
    }
  } catch (const zmq::error_t& e) {
    problem = e.what();
    return Received::kError;
  }
}

bool ZmqRequestChannel::send(std::string_view reply) {
  try {
    return sockets_->reply.send(zmq::buffer(reply.data(), reply.size()), zmq::send_flags::none)
        .has_value();
  } catch (const zmq::error_t&) {
    return false;
  }
}

}  // namespace batfill::cli
