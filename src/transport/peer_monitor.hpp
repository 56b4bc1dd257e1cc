#pragma once
// Notices that the peer of a ZeroMQ socket went away (docs/protocol.md §1.4): ZeroMQ itself
// reconnects silently and a REQ/REP exchange would wait for the whole --timeout. A monitor
// socket reports each connection and disconnection; a disconnection after a connection means
// the peer died (or ZeroMQ dropped it for a message above the size limit). Batsim and its
// scheduler keep one connection for the whole run, so any disconnection is final.
// Private to src/transport.

#include <string>
#include <zmq.hpp>

namespace batfill::transport {

class PeerMonitor {
 public:
  // Starts monitoring `socket`, whose peer is called `peer` in messages.
  PeerMonitor(zmq::context_t& context, zmq::socket_t& socket, const std::string& name);
  ~PeerMonitor();

  // The poll item that becomes readable when an event arrives.
  zmq::pollitem_t poll_item();
  // Reads the pending events; true once a connected peer has disconnected.
  bool peer_lost();

 private:
  zmq::socket_t& watched_;
  zmq::socket_t events_;
  bool connected_ = false;
  bool lost_ = false;
};

}  // namespace batfill::transport
