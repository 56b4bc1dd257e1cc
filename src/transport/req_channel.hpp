#pragma once
// The stand-in's end of the lockstep exchange with a decision process in another process: a
// ZeroMQ REQ socket that connects (the simulator plays Batsim's part), sends one request and
// waits for its one reply, at most `timeout`, noticing a peer that died
// (docs/protocol.md#peer-death-and-message-size). Used for Batsim 4 schedulers and for Batsim 5
// process EDCs alike. Private to src/transport.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <zmq.hpp>

#include "peer_monitor.hpp"

namespace batfill::transport {

class ReqChannel {
 public:
  // Connects to `endpoint`; ZeroMQ connects in the background, so the peer may start later.
  // Throws std::runtime_error for an invalid endpoint.
  ReqChannel(std::string endpoint, std::chrono::milliseconds timeout);
  ~ReqChannel();

  // Sends `bytes` and returns the reply. Throws std::runtime_error naming the endpoint when no
  // reply comes within the timeout or the peer is gone; the channel is then unusable, as REQ
  // allows no second send.
  std::string request(std::string_view bytes);

  const std::string& endpoint() const { return endpoint_; }

 private:
  enum class Wait { kReply, kTimeout, kPeerLost };
  Wait wait_for_reply();

  std::string endpoint_;
  std::chrono::milliseconds timeout_;
  zmq::context_t context_;
  zmq::socket_t socket_;
  std::unique_ptr<PeerMonitor> monitor_;
  bool broken_ = false;
};

}  // namespace batfill::transport
