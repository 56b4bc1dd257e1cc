#include "peer_monitor.hpp"

#include <cstdint>
#include <cstring>
#include <string>

namespace batfill::transport {
namespace {

constexpr int kHandshakeFailed = ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |
                                 ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
                                 ZMQ_EVENT_HANDSHAKE_FAILED_AUTH;

}  // namespace

PeerMonitor::PeerMonitor(zmq::context_t& context, zmq::socket_t& socket, const std::string& name)
    : watched_(socket), events_(context, zmq::socket_type::pair) {
  // One endpoint per socket: a process may monitor several.
  const std::string endpoint = "inproc://batfill-monitor-" + name + "-" +
                               std::to_string(reinterpret_cast<std::uintptr_t>(&socket));
  const int events = ZMQ_EVENT_HANDSHAKE_SUCCEEDED | kHandshakeFailed | ZMQ_EVENT_DISCONNECTED;
  if (zmq_socket_monitor(socket.handle(), endpoint.c_str(), events) != 0) throw zmq::error_t();
  events_.connect(endpoint);
}

PeerMonitor::~PeerMonitor() { zmq_socket_monitor(watched_.handle(), nullptr, 0); }

zmq::pollitem_t PeerMonitor::poll_item() { return {events_.handle(), 0, ZMQ_POLLIN, 0}; }

void PeerMonitor::follow(int fd) {
  (void)peer_lost();
  followed_ = fd;
}

bool PeerMonitor::peer_lost() {
  // Each event is two frames: 16-bit event id and 32-bit value, then the endpoint.
  zmq::message_t header;
  zmq::message_t address;
  while (events_.recv(header, zmq::recv_flags::dontwait)) {
    (void)events_.recv(address);
    std::uint16_t event = 0;
    std::uint32_t value = 0;  // for a disconnection, its connection's file descriptor
    if (header.size() >= sizeof event + sizeof value) {
      std::memcpy(&event, header.data(), sizeof event);
      std::memcpy(&value, static_cast<const char*>(header.data()) + sizeof event, sizeof value);
    }
    if (followed_ >= 0) {
      lost_ = lost_ || (event == ZMQ_EVENT_DISCONNECTED && static_cast<int>(value) == followed_);
    } else if (event == ZMQ_EVENT_HANDSHAKE_SUCCEEDED) {
      handshaken_ = true;
    } else if ((event & kHandshakeFailed) != 0) {
      // libzmq reports the disconnection of that connection right after, from the same I/O
      // thread (the context has one): nothing can come between.
      handshake_failed_ = true;
      continue;
    } else if (event == ZMQ_EVENT_DISCONNECTED && handshaken_ && !handshake_failed_) {
      // Final even if ZeroMQ reconnects a moment later: a peer that dropped mid-exchange lost
      // the request or the reply it was waiting for.
      lost_ = true;
    }
    handshake_failed_ = false;
  }
  return lost_;
}

}  // namespace batfill::transport
