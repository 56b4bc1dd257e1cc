#pragma once
// The REP end of one ZeroMQ connection, speaking ZMTP 3.0 (the ZeroMQ wire protocol, NULL
// security) itself on a plain socket, in the calling thread (docs/protocol.md §1.5): libzmq
// moves every message through an I/O thread of its own, whose wake-ups cost a REP loop more
// processor time than answering Batsim. A peer's death is a closed connection, seen by the
// read that was waiting (docs/protocol.md §1.4). The peer is untrusted: every wait ends at a
// deadline, every message is bounded, every breach of the protocol is a ZmtpError naming it
// and its byte in the connection (docs/protocol.md §1.6). Private to src/transport.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "zmtp_error.hpp"

namespace batfill::transport {

class ZmtpReplySocket {
 public:
  enum class Received { kRequest, kTimeout, kPeerLost, kTooLarge };

  // Binds `endpoint` (tcp://HOST:PORT, HOST an address, a name or *, or ipc://PATH). `timeout`
  // bounds each receive() and each send() as a whole. A request with its envelope (every frame
  // of the message, routing frames with their headers) may hold `max_message_bytes`. Throws
  // ZmtpError.
  ZmtpReplySocket(const std::string& endpoint, std::chrono::milliseconds timeout,
                  std::size_t max_message_bytes);
  // Speaks to the peer at the other end of `connected`, a connected stream socket it now owns
  // (a socketpair end, for fuzz/fuzz_zmtp.cpp).
  ZmtpReplySocket(int connected, std::chrono::milliseconds timeout, std::size_t max_message_bytes);
  ~ZmtpReplySocket();
  ZmtpReplySocket(const ZmtpReplySocket&) = delete;
  ZmtpReplySocket& operator=(const ZmtpReplySocket&) = delete;

  // Waits for the next request (accepting the peer first): kPeerLost when the peer closed the
  // connection, kTooLarge when it sent a message or command above the size limit (which ends
  // the connection, as libzmq would), kTimeout when no whole request came within the timeout.
  // Throws ZmtpError.
  Received receive();
  // The last request received, valid until the next receive().
  std::string_view request() const { return request_; }
  // Replies to the last request: false when the peer closed the connection. Throws ZmtpError,
  // also when the peer has not taken the whole reply within the timeout.
  bool send(std::string_view reply);

 private:
  void accept_peer();
  void adopt(int connected);
  void forget_peer();
  void handshake();
  bool read_frame(unsigned char& flags, std::string_view& body, std::size_t budget);
  bool fill(std::size_t bytes);
  void consume(std::size_t bytes);
  bool wait_for(int fd, short events);
  bool write_all(const std::string_view* parts, std::size_t count);

  int listener_ = -1;
  int peer_ = -1;
  std::string ipc_path_;  // removed on close, as libzmq does
  std::chrono::milliseconds timeout_;
  std::size_t max_message_bytes_;
  bool handshaken_ = false;
  // The current receive() or send() ends here; `waited_` once the first read of a receive(),
  // bounded by the socket's own timeout, is done.
  std::chrono::steady_clock::time_point deadline_;
  bool waited_ = false;
  Received failure_ = Received::kTimeout;  // why the last read_frame or fill returned false
  // Bytes read from the peer; [start_, end_) not consumed yet; `offset_` bytes of the
  // connection consumed before start_, for errors.
  std::vector<char> input_;
  std::size_t start_ = 0;
  std::size_t end_ = 0;
  std::uint64_t offset_ = 0;
  std::string envelope_;  // the request's routing frames and delimiter, returned with the reply
  std::string_view request_;
};

}  // namespace batfill::transport
