// libFuzzer target: the REP end of a ZMTP connection (src/transport/zmtp_reply_socket.cpp), fed
// arbitrary bytes as its peer's side of a socketpair and driven as `serve` drives it: receive,
// reply, until the peer is lost, a limit is reached or a ZmtpError names the fault. Whatever
// the bytes, it must not crash, hang or grow without bound (docs/protocol.md §1.6). The size
// limit is small here so that inputs of -max_len reach it.
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>

#include "zmtp_reply_socket.hpp"

namespace {

// Reads and drops what the socket wrote (greeting, READY, replies), so that its writes never
// wait for a reader.
void drain(int peer) {
  char sink[1 << 16];
  while (::recv(peer, sink, sizeof sink, MSG_DONTWAIT) > 0) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using batfill::transport::ZmtpError;
  using batfill::transport::ZmtpReplySocket;
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) std::abort();
  // The whole input is in the socket before the first read, then end of stream: no read waits.
  const int buffer = 1 << 20;
  ::setsockopt(ends[1], SOL_SOCKET, SO_SNDBUF, &buffer, sizeof buffer);
  if (size > 0 && ::send(ends[1], data, size, MSG_DONTWAIT) != static_cast<ssize_t>(size)) {
    std::abort();
  }
  ::shutdown(ends[1], SHUT_WR);
  {
    ZmtpReplySocket socket(ends[0], std::chrono::seconds(5), 4096);
    try {
      while (socket.receive() == ZmtpReplySocket::Received::kRequest) {
        drain(ends[1]);
        if (!socket.send(socket.request().substr(0, 64))) break;
        drain(ends[1]);
      }
    } catch (const ZmtpError&) {
      // A named fault of the peer: the expected end of most inputs.
    }
  }
  ::close(ends[1]);
  return 0;
}
