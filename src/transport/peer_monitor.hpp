#pragma once
// Notices that the peer of a ZeroMQ socket went away
// (docs/protocol.md#peer-death-and-message-size): ZeroMQ itself forgets a closed connection
// silently (or reconnects), so a REQ/REP exchange would wait for the whole --timeout. A monitor
// socket reports each connection's events; a peer that completed the ZeroMQ handshake and then
// disconnected died (or ZeroMQ dropped it for a message above the size limit). Batsim and its
// scheduler keep one connection for the whole run, so any such disconnection is final. A connection
// that never completed its handshake (a port probe, a client that does not speak ZeroMQ) is no
// peer: its end is ignored. Once the one peer that matters is known by its connection (serve: the
// sender of the first request), only that connection's end counts: another Batsim refused on the
// same port may come and go. Private to src/transport.

#include <string>
#include <zmq.hpp>

namespace batfill::transport {

class PeerMonitor {
 public:
  // Starts monitoring `socket` (`name` keeps its monitor's endpoint apart from others'). Before
  // the socket binds or connects, so that no event is missed.
  PeerMonitor(zmq::context_t& context, zmq::socket_t& socket, const std::string& name);
  ~PeerMonitor();

  // The poll item that becomes readable when an event arrives.
  zmq::pollitem_t poll_item();
  // Reads the pending events; true once a peer has disconnected after its handshake (or, once
  // follow() was called, once that connection ended).
  bool peer_lost();
  // From now on, only the end of the connection on file descriptor `fd` (a message's
  // ZMQ_SRCFD) means the peer is lost. The events already queued are read first: an earlier
  // connection that ended may have had the same descriptor.
  void follow(int fd);

 private:
  zmq::socket_t& watched_;
  zmq::socket_t events_;
  bool handshaken_ = false;        // some peer completed its handshake
  bool handshake_failed_ = false;  // the last event was a failed handshake
  bool lost_ = false;
  int followed_ = -1;  // the peer's connection, once known
};

}  // namespace batfill::transport
