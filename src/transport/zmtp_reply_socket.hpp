#pragma once
// The REP end of one ZeroMQ connection, speaking ZMTP 3.0 (the ZeroMQ wire protocol, NULL
// security) itself on a plain socket, in the calling thread (docs/protocol.md §1.5): libzmq
// moves every message through an I/O thread of its own, whose wake-ups cost a REP loop more
// processor time than answering Batsim. A peer's death is a closed connection, seen by the
// read that was waiting (docs/protocol.md §1.4). Private to src/transport.

#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace batfill::transport {

// The connection broke the protocol (no ZMTP greeting, a multi-part request), or a system
// call failed.
class ZmtpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ZmtpReplySocket {
 public:
  enum class Received { kRequest, kTimeout, kPeerLost };

  // Binds `endpoint` (tcp://HOST:PORT, HOST an address, a name or *, or ipc://PATH). `timeout`
  // bounds every wait: for the peer, for a request, for a reply to leave. Throws ZmtpError.
  ZmtpReplySocket(const std::string& endpoint, std::chrono::milliseconds timeout,
                  std::size_t max_message_bytes);
  ~ZmtpReplySocket();
  ZmtpReplySocket(const ZmtpReplySocket&) = delete;
  ZmtpReplySocket& operator=(const ZmtpReplySocket&) = delete;

  // Waits for the next request (accepting the peer first): kPeerLost when the peer closed the
  // connection or sent a message above the size limit, which ends the connection. Throws
  // ZmtpError.
  Received receive();
  // The last request received, valid until the next receive().
  std::string_view request() const { return request_; }
  // Replies to the last request: false when the peer closed the connection. Throws ZmtpError.
  bool send(std::string_view reply);

 private:
  void accept_peer();
  void handshake();
  bool read_frame(unsigned char& flags, std::string_view& body);
  bool fill(std::size_t bytes);
  bool write_all(const std::string_view* parts, std::size_t count);

  int listener_ = -1;
  int peer_ = -1;
  std::string ipc_path_;  // removed on close, as libzmq does
  std::chrono::milliseconds timeout_;
  std::size_t max_message_bytes_;
  bool handshaken_ = false;
  Received failure_ = Received::kTimeout;  // why the last read_frame or fill returned false
  // Bytes read from the peer; [start_, end_) not consumed yet.
  std::vector<char> input_;
  std::size_t start_ = 0;
  std::size_t end_ = 0;
  std::string envelope_;  // the request's routing frames and delimiter, returned with the reply
  std::string_view request_;
};

}  // namespace batfill::transport
