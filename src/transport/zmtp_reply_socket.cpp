#include "zmtp_reply_socket.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "listening_socket.hpp"

namespace batfill::transport {
namespace {

// ZMTP 3.0 (rfc.zeromq.org/spec/23): a 64-byte greeting each way, then frames. A frame is a
// flags byte, its size (one byte, or eight big-endian with kLong) and its body.
constexpr unsigned char kMore = 0x01;
constexpr unsigned char kLong = 0x02;
constexpr unsigned char kCommand = 0x04;
constexpr std::size_t kGreetingBytes = 64;

timeval to_timeval(std::chrono::milliseconds duration) {
  timeval t{};
  t.tv_sec = static_cast<time_t>(duration.count() / 1000);
  t.tv_usec = static_cast<suseconds_t>((duration.count() % 1000) * 1000);
  return t;
}

// The greeting of a NULL-security peer: signature, version 3.0, mechanism, not a server.
std::string greeting() {
  std::string text(kGreetingBytes, '\0');
  text[0] = static_cast<char>(0xff);
  text[9] = 0x7f;
  text[10] = 3;
  text.replace(12, 4, "NULL");
  return text;
}

// READY with the one property a REQ peer checks: the socket type.
std::string ready_command() {
  const std::string body =
      std::string("\x05READY\x0bSocket-Type", 18) + std::string("\0\0\0\x03", 4) + "REP";
  return std::string(1, static_cast<char>(kCommand)) + static_cast<char>(body.size()) + body;
}

// The frame header of a final frame of `size` bytes.
std::string frame_header(std::size_t size) {
  if (size <= 0xff) return {'\0', static_cast<char>(size)};
  std::string header(9, '\0');
  header[0] = static_cast<char>(kLong);
  for (int i = 0; i < 8; ++i) header[8 - i] = static_cast<char>((size >> (8 * i)) & 0xff);
  return header;
}

// The value of the property `name` in a READY command's body, empty if absent.
std::string_view ready_property(std::string_view body, std::string_view name) {
  std::size_t at = 6;  // after "\x05READY"
  while (at < body.size()) {
    const std::size_t name_size = static_cast<unsigned char>(body[at]);
    if (at + 1 + name_size + 4 > body.size()) break;
    const std::string_view key = body.substr(at + 1, name_size);
    at += 1 + name_size;
    std::size_t value_size = 0;
    for (int i = 0; i < 4; ++i)
      value_size = value_size << 8 | static_cast<unsigned char>(body[at + i]);
    at += 4;
    if (value_size > body.size() - at) break;
    if (key == name) return body.substr(at, value_size);
    at += value_size;
  }
  return {};
}

// `text` for an error message: at most 40 characters, anything unprintable as '?'.
std::string printable(std::string_view text) {
  std::string shown(text.substr(0, 40));
  for (char& c : shown) {
    if (c < 0x20 || c > 0x7e) c = '?';
  }
  return text.size() > 40 ? shown + "..." : shown;
}

// A command's name: its first byte is the name's size (ZMTP 3.0 §"Commands").
std::string command_name(std::string_view body) {
  if (body.empty()) return "an empty command";
  return "the command '" + printable(body.substr(1, static_cast<unsigned char>(body[0]))) + "'";
}

}  // namespace

ZmtpReplySocket::ZmtpReplySocket(const std::string& endpoint, std::chrono::milliseconds timeout,
                                 std::size_t max_message_bytes)
    : timeout_(timeout), max_message_bytes_(max_message_bytes), input_(1 << 16) {
  listener_ = listen_on(endpoint, ipc_path_);
}

ZmtpReplySocket::ZmtpReplySocket(int connected, std::chrono::milliseconds timeout,
                                 std::size_t max_message_bytes)
    : timeout_(timeout), max_message_bytes_(max_message_bytes), input_(1 << 16) {
  adopt(connected);
}

ZmtpReplySocket::~ZmtpReplySocket() {
  // A reply already written leaves before the connection closes: nothing else is pending.
  if (peer_ >= 0) ::close(peer_);
  if (listener_ >= 0) ::close(listener_);
  if (!ipc_path_.empty()) ::unlink(ipc_path_.c_str());
}

// The first connection to complete the handshake is the peer: Batsim keeps one for the whole
// run (docs/protocol.md §1.4). Later ones wait in the listen queue, unanswered.
void ZmtpReplySocket::accept_peer() {
  while (peer_ < 0) {
    if (!wait_for(listener_, POLLIN)) return;
    const int connected = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connected >= 0) {
      adopt(connected);
    } else if (!connection_gone(errno)) {
      fail_with_errno("accept");
    }
  }
}

void ZmtpReplySocket::adopt(int connected) {
  peer_ = connected;
  // Lockstep: each message leaves at once rather than waiting to fill a packet.
  const int on = 1;
  ::setsockopt(peer_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);  // fails harmlessly on ipc
  const timeval bound = to_timeval(timeout_);
  if (::setsockopt(peer_, SOL_SOCKET, SO_RCVTIMEO, &bound, sizeof bound) != 0) {
    fail_with_errno("setsockopt");
  }
}

// A connection closed before its handshake (a port probe): the next one may be Batsim.
void ZmtpReplySocket::forget_peer() {
  ::close(peer_);
  peer_ = -1;
  start_ = end_ = 0;
  offset_ = 0;
}

// Greetings, then READY commands, each way; the peer must be a REQ (or DEALER) socket with NULL
// security. The signature and major version come first: a peer of ZMTP 2 or older sends no
// more until it has read ours, and is named rather than waited for.
void ZmtpReplySocket::handshake() {
  const std::string ours = greeting();
  const std::string_view ours_view = ours;
  if (!write_all(&ours_view, 1)) {
    failure_ = Received::kPeerLost;
    return;
  }
  if (!fill(11)) return;
  const auto byte = [this](std::size_t i) {
    return static_cast<unsigned char>(input_[start_ + i]);
  };
  if (byte(0) != 0xff || (byte(9) & 1) == 0) {
    throw ZmtpError(
        "the peer does not speak ZMTP: its first bytes are not a ZeroMQ greeting (not "
        "a ZeroMQ socket)");
  }
  if (byte(10) < 3) {
    throw ZmtpError("the peer's ZMTP version is " + std::to_string(byte(10)) +
                    ", before 3 (libzmq older than 4)");
  }
  if (!fill(kGreetingBytes)) return;
  const std::string_view mechanism(input_.data() + start_ + 12, 20);
  if (mechanism != std::string_view("NULL\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 20)) {
    throw ZmtpError("the peer asks for security mechanism '" +
                    printable(mechanism.substr(0, mechanism.find('\0'))) +
                    "'; batfill speaks ZMTP without (NULL)");
  }
  consume(kGreetingBytes);
  const std::string ready = ready_command();
  const std::string_view ready_view = ready;
  if (!write_all(&ready_view, 1)) {
    failure_ = Received::kPeerLost;
    return;
  }
  unsigned char flags = 0;
  std::string_view command;
  const std::uint64_t at = offset_;
  if (!read_frame(flags, command, max_message_bytes_)) return;
  if ((flags & kCommand) == 0 || command.substr(0, 6) != "\x05READY") {
    throw ZmtpError("the peer sent " +
                    ((flags & kCommand) == 0 ? std::string("a message") : command_name(command)) +
                    " at byte " + std::to_string(at) + " instead of its READY command");
  }
  const std::string_view type = ready_property(command, "Socket-Type");
  if (type.empty()) throw ZmtpError("the peer's READY command names no Socket-Type");
  if (type != "REQ" && type != "DEALER") {
    throw ZmtpError("the peer is a " + printable(type) + " socket, not REQ (or DEALER)");
  }
  handshaken_ = true;
}

ZmtpReplySocket::Received ZmtpReplySocket::receive() {
  if (start_ == end_) start_ = end_ = 0;
  deadline_ = std::chrono::steady_clock::now() + timeout_;
  waited_ = false;
  failure_ = Received::kTimeout;
  while (!handshaken_) {
    if (peer_ < 0) {
      accept_peer();
      if (peer_ < 0) return Received::kTimeout;
      waited_ = true;  // the deadline, not a fresh socket timeout, bounds the rest
    }
    handshake();
    if (handshaken_) break;
    if (failure_ != Received::kPeerLost || listener_ < 0) return failure_;
    forget_peer();
  }
  // The envelope: routing frames up to an empty delimiter, each marked "more" (a REQ peer sends
  // the delimiter alone); then the request, in one frame. Together, routing frames counted with
  // their headers, they hold at most max_message_bytes_ (docs/protocol.md §1.4). Commands may
  // come between messages, not inside one.
  envelope_.clear();
  bool in_envelope = true;
  unsigned char flags = 0;
  std::string_view body;
  while (true) {
    const std::uint64_t at = offset_;
    if (!read_frame(flags, body, max_message_bytes_ - envelope_.size())) return failure_;
    if ((flags & kCommand) != 0) {
      if (envelope_.empty()) continue;  // no command matters between messages
      throw ZmtpError(command_name(body) + " at byte " + std::to_string(at) + " inside a message");
    }
    if (!in_envelope) break;
    if ((flags & kMore) == 0) {
      throw ZmtpError("a request without its envelope (the frame at byte " + std::to_string(at) +
                      "): not a REQ peer");
    }
    // The frame as read, header included, just before its body.
    const std::size_t header = (flags & kLong) != 0 ? 9 : 2;
    envelope_.append(body.data() - header, header + body.size());
    in_envelope = !body.empty();
  }
  if ((flags & kMore) != 0) {
    throw ZmtpError("a request in several parts (more frames after byte " +
                    std::to_string(offset_) + "); Batsim sends one");
  }
  request_ = body;
  return Received::kRequest;
}

bool ZmtpReplySocket::send(std::string_view reply) {
  deadline_ = std::chrono::steady_clock::now() + timeout_;
  const std::string header = frame_header(reply.size());
  const std::string_view parts[] = {envelope_, header, reply};
  return write_all(parts, 3);
}

// One frame of at most `budget` bytes (header included for a routing frame, body only for the
// request, as the caller counts); false when the peer is gone, the frame is above the budget
// (which ends the connection as libzmq would), or the deadline passed: `failure_` says which.
bool ZmtpReplySocket::read_frame(unsigned char& flags, std::string_view& body, std::size_t budget) {
  if (!fill(2)) return false;
  flags = static_cast<unsigned char>(input_[start_]);
  const bool reserved = (flags & ~(kMore | kLong | kCommand)) != 0;
  if (reserved || ((flags & kCommand) != 0 && (flags & kMore) != 0)) {
    char text[120];
    std::snprintf(text, sizeof text, "malformed ZMTP frame at byte %llu: flags 0x%02x (%s)",
                  static_cast<unsigned long long>(offset_), flags,
                  reserved ? "reserved bits set" : "a command marked 'more'");
    throw ZmtpError(text);
  }
  const std::size_t header = (flags & kLong) != 0 ? 9 : 2;
  if (!fill(header)) return false;
  std::uint64_t size = 0;
  for (std::size_t i = 1; i < header; ++i) {
    size = size << 8 | static_cast<unsigned char>(input_[start_ + i]);
  }
  const bool routing = (flags & (kCommand | kMore)) == kMore;
  if (size > budget || (routing && header + size > budget)) {
    failure_ = Received::kTooLarge;
    return false;
  }
  const auto frame = static_cast<std::size_t>(header + size);
  if (!fill(frame)) return false;
  body = std::string_view(input_.data() + start_ + header, frame - header);
  consume(frame);
  return true;
}

void ZmtpReplySocket::consume(std::size_t bytes) {
  start_ += bytes;
  offset_ += bytes;
}

// At least `bytes` unread bytes in `input_`, reading as much as the peer has sent. The first
// read of a receive() blocks on the socket's own timeout (one system call per request, §1.5);
// any further one first polls until the deadline, so a peer that trickles its bytes cannot
// stretch the wait (docs/protocol.md §1.6).
bool ZmtpReplySocket::fill(std::size_t bytes) {
  if (end_ - start_ >= bytes) return true;
  if (input_.size() - start_ < bytes) {
    std::memmove(input_.data(), input_.data() + start_, end_ - start_);
    end_ -= start_;
    start_ = 0;
    if (input_.size() < bytes) input_.resize(bytes);
  }
  while (end_ - start_ < bytes) {
    const bool blocking = !waited_;
    if (!blocking && !wait_for(peer_, POLLIN)) {
      failure_ = Received::kTimeout;
      return false;
    }
    waited_ = true;
    const ssize_t got =
        ::recv(peer_, input_.data() + end_, input_.size() - end_, blocking ? 0 : MSG_DONTWAIT);
    if (got > 0) {
      end_ += static_cast<std::size_t>(got);
    } else if (got == 0 || errno == ECONNRESET) {
      failure_ = Received::kPeerLost;
      return false;
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (blocking) {
        failure_ = Received::kTimeout;
        return false;
      }
    } else if (errno != EINTR) {
      fail_with_errno("read");
    }
  }
  return true;
}

// Until `fd` is ready for `events`: false once the deadline has passed.
bool ZmtpReplySocket::wait_for(int fd, short events) {
  while (true) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd waiting{fd, events, 0};
    const int ready =
        ::poll(&waiting, 1, static_cast<int>(std::min<long long>(left.count(), 1LL << 30)));
    if (ready > 0) return true;  // an error or hang-up too: the next call reports it
    if (ready < 0 && errno != EINTR) fail_with_errno("poll");
  }
}

// False when the peer closed the connection. Never blocks in the kernel (a blocking send on a
// Unix socket restarts its timeout for each piece the peer takes): a reply that fits the
// socket's buffer leaves in one system call, as before; a larger one waits for the peer until
// the deadline, however slowly it reads.
bool ZmtpReplySocket::write_all(const std::string_view* parts, std::size_t count) {
  iovec pieces[3];
  std::size_t total = 0;
  for (std::size_t i = 0; i < count; ++i) {
    pieces[i] = {const_cast<char*>(parts[i].data()), parts[i].size()};
    total += parts[i].size();
  }
  msghdr message{};
  message.msg_iov = pieces;
  message.msg_iovlen = count;
  std::size_t left = total;
  while (left > 0) {
    const ssize_t sent = ::sendmsg(peer_, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (errno != EINTR && !wait_for(peer_, POLLOUT)) {
        throw ZmtpError("the peer took only " + std::to_string(total - left) + " of " +
                        std::to_string(total) + " bytes within the timeout: is it reading?");
      }
      continue;
    }
    if (sent < 0 && (errno == EPIPE || errno == ECONNRESET)) return false;
    if (sent < 0) fail_with_errno("send");
    left -= static_cast<std::size_t>(sent);
    // Skips what left, for a partial send.
    auto done = static_cast<std::size_t>(sent);
    while (done > 0 && message.msg_iovlen > 0) {
      const std::size_t step = std::min(done, message.msg_iov->iov_len);
      message.msg_iov->iov_base = static_cast<char*>(message.msg_iov->iov_base) + step;
      message.msg_iov->iov_len -= step;
      done -= step;
      if (message.msg_iov->iov_len == 0) {
        ++message.msg_iov;
        --message.msg_iovlen;
      }
    }
  }
  return true;
}

}  // namespace batfill::transport
