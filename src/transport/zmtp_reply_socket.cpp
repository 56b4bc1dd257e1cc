#include "zmtp_reply_socket.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>

namespace batfill::transport {
namespace {

// ZMTP 3.0 (rfc.zeromq.org/spec/23): a 64-byte greeting each way, then frames. A frame is a
// flags byte, its size (one byte, or eight big-endian with kLong) and its body.
constexpr unsigned char kMore = 0x01;
constexpr unsigned char kLong = 0x02;
constexpr unsigned char kCommand = 0x04;
constexpr std::size_t kGreetingBytes = 64;

[[noreturn]] void fail_with_errno(const std::string& what) {
  throw ZmtpError(what + ": " + std::strerror(errno));
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

timeval to_timeval(std::chrono::milliseconds duration) {
  timeval t{};
  t.tv_sec = static_cast<time_t>(duration.count() / 1000);
  t.tv_usec = static_cast<suseconds_t>((duration.count() % 1000) * 1000);
  return t;
}

// A listening socket on ipc://PATH (a Unix socket; "@name" in the abstract namespace).
int listen_ipc(const std::string& path, std::string& created) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof address.sun_path) {
    throw ZmtpError("the ipc path must hold 1 to " + std::to_string(sizeof address.sun_path - 1) +
                    " characters");
  }
  std::memcpy(address.sun_path, path.data(), path.size());
  if (path[0] == '@') {
    address.sun_path[0] = '\0';
  } else {
    ::unlink(path.c_str());  // a socket file left by an earlier run, as libzmq does
    created = path;
  }
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail_with_errno("socket");
  const auto size = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + path.size());
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), size) != 0 || ::listen(fd, 8) != 0) {
    const int error = errno;
    ::close(fd);
    errno = error;
    fail_with_errno("bind");
  }
  return fd;
}

// A listening socket on tcp://HOST:PORT; "*" is every IPv4 interface, as in libzmq.
int listen_tcp(const std::string& address) {
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos) throw ZmtpError("no port in tcp://" + address);
  std::string host = address.substr(0, colon);
  const std::string port = address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  addrinfo hints{};
  // IPv4 unless the address is IPv6: a host name such as localhost then means what it means to
  // Batsim's libzmq, which resolves names to IPv4 by default.
  hints.ai_family = host.find(':') == std::string::npos ? AF_INET : AF_INET6;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const int error =
      ::getaddrinfo(host == "*" ? nullptr : host.c_str(), port.c_str(), &hints, &found);
  if (error != 0) throw ZmtpError(::gai_strerror(error));
  int fd = -1;
  int last_errno = 0;
  for (const addrinfo* at = found; at != nullptr && fd < 0; at = at->ai_next) {
    fd = ::socket(at->ai_family, at->ai_socktype | SOCK_CLOEXEC, at->ai_protocol);
    if (fd < 0) {
      last_errno = errno;
      continue;
    }
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (::bind(fd, at->ai_addr, at->ai_addrlen) != 0 || ::listen(fd, 8) != 0) {
      last_errno = errno;
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd < 0) {
    errno = last_errno;
    fail_with_errno("bind");
  }
  return fd;
}

}  // namespace

ZmtpReplySocket::ZmtpReplySocket(const std::string& endpoint, std::chrono::milliseconds timeout,
                                 std::size_t max_message_bytes)
    : timeout_(timeout), max_message_bytes_(max_message_bytes), input_(1 << 16) {
  const std::size_t scheme = endpoint.find("://");
  const std::string transport = endpoint.substr(0, scheme);
  const std::string address = scheme == std::string::npos ? "" : endpoint.substr(scheme + 3);
  if (scheme != std::string::npos && transport == "tcp") {
    listener_ = listen_tcp(address);
  } else if (scheme != std::string::npos && transport == "ipc") {
    listener_ = listen_ipc(address, ipc_path_);
  } else {
    throw ZmtpError("not a tcp:// or ipc:// endpoint");
  }
}

ZmtpReplySocket::~ZmtpReplySocket() {
  // A reply already written leaves before the connection closes: nothing else is pending.
  if (peer_ >= 0) ::close(peer_);
  if (listener_ >= 0) ::close(listener_);
  if (!ipc_path_.empty()) ::unlink(ipc_path_.c_str());
}

// The first connection is the peer: Batsim keeps one for the whole run (docs/protocol.md §1.4).
void ZmtpReplySocket::accept_peer() {
  pollfd waiting{listener_, POLLIN, 0};
  int ready = 0;
  do {
    ready = ::poll(&waiting, 1, static_cast<int>(timeout_.count()));
  } while (ready < 0 && errno == EINTR);
  if (ready < 0) fail_with_errno("poll");
  if (ready == 0) return;
  peer_ = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
  if (peer_ < 0) fail_with_errno("accept");
  // Lockstep: each message leaves at once rather than waiting to fill a packet.
  const int on = 1;
  ::setsockopt(peer_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);  // fails harmlessly on ipc
  const timeval bound = to_timeval(timeout_);
  if (::setsockopt(peer_, SOL_SOCKET, SO_RCVTIMEO, &bound, sizeof bound) != 0 ||
      ::setsockopt(peer_, SOL_SOCKET, SO_SNDTIMEO, &bound, sizeof bound) != 0) {
    fail_with_errno("setsockopt");
  }
}

// Greetings, then READY commands, each way; the peer must be a REQ (or DEALER) socket with NULL
// security.
void ZmtpReplySocket::handshake() {
  const std::string ours = greeting();
  const std::string_view ours_view = ours;
  failure_ = Received::kPeerLost;
  if (!write_all(&ours_view, 1) || !fill(kGreetingBytes)) return;
  const std::string_view theirs(input_.data() + start_, kGreetingBytes);
  start_ += kGreetingBytes;
  if (static_cast<unsigned char>(theirs[0]) != 0xff || theirs[9] != 0x7f) {
    throw ZmtpError("the peer does not speak ZMTP (not a ZeroMQ socket)");
  }
  if (theirs[10] < 3) throw ZmtpError("the peer speaks ZMTP before 3.0 (libzmq older than 4)");
  if (theirs.substr(12, 20) != std::string_view("NULL\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 20)) {
    throw ZmtpError("the peer asks for security; batfill speaks ZMTP without (NULL)");
  }
  const std::string ready = ready_command();
  const std::string_view ready_view = ready;
  if (!write_all(&ready_view, 1)) {
    failure_ = Received::kPeerLost;
    return;
  }
  unsigned char flags = 0;
  std::string_view command;
  if (!read_frame(flags, command)) return;
  if ((flags & kCommand) == 0 || command.substr(0, 6) != "\x05READY") {
    throw ZmtpError("the peer sent no READY command");
  }
  const std::string_view type = ready_property(command, "Socket-Type");
  if (type != "REQ" && type != "DEALER") {
    throw ZmtpError("the peer is a " + std::string(type) + " socket, not REQ");
  }
  handshaken_ = true;
}

ZmtpReplySocket::Received ZmtpReplySocket::receive() {
  if (start_ == end_) start_ = end_ = 0;
  failure_ = Received::kTimeout;
  if (peer_ < 0) {
    accept_peer();
    if (peer_ < 0) return Received::kTimeout;
  }
  if (!handshaken_) {
    handshake();
    if (!handshaken_) return failure_;
  }
  // The envelope: routing frames up to an empty delimiter, each marked "more" (a REQ peer sends
  // the delimiter alone); then the request, in one frame.
  envelope_.clear();
  bool in_envelope = true;
  unsigned char flags = 0;
  std::string_view body;
  while (true) {
    if (!read_frame(flags, body)) return failure_;
    if ((flags & kCommand) != 0) continue;  // no command matters between messages
    if (!in_envelope) break;
    if ((flags & kMore) == 0) throw ZmtpError("a request without its envelope: not a REQ peer");
    // The frame as read, header included, just before its body.
    const std::size_t header = (flags & kLong) != 0 ? 9 : 2;
    envelope_.append(body.data() - header, header + body.size());
    in_envelope = !body.empty();
  }
  if ((flags & kMore) != 0) throw ZmtpError("a request in several parts; Batsim sends one");
  request_ = body;
  return Received::kRequest;
}

bool ZmtpReplySocket::send(std::string_view reply) {
  const std::string header = frame_header(reply.size());
  const std::string_view parts[] = {envelope_, header, reply};
  return write_all(parts, 3);
}

// One frame; false when the peer is gone (or its frame is above the size limit, which ends the
// connection as libzmq would) or the timeout passed: `failure_` says which.
bool ZmtpReplySocket::read_frame(unsigned char& flags, std::string_view& body) {
  if (!fill(2)) return false;
  flags = static_cast<unsigned char>(input_[start_]);
  if ((flags & ~(kMore | kLong | kCommand)) != 0) throw ZmtpError("malformed ZMTP frame");
  const std::size_t header = (flags & kLong) != 0 ? 9 : 2;
  if (!fill(header)) return false;
  std::size_t size = 0;
  for (std::size_t i = 1; i < header; ++i) {
    size = size << 8 | static_cast<unsigned char>(input_[start_ + i]);
  }
  if (size > max_message_bytes_) {
    failure_ = Received::kPeerLost;
    return false;
  }
  if (!fill(header + size)) return false;
  body = std::string_view(input_.data() + start_ + header, size);
  start_ += header + size;
  return true;
}

// At least `bytes` unread bytes in `input_`, reading as much as the peer has sent.
bool ZmtpReplySocket::fill(std::size_t bytes) {
  if (end_ - start_ >= bytes) return true;
  if (input_.size() - start_ < bytes) {
    std::memmove(input_.data(), input_.data() + start_, end_ - start_);
    end_ -= start_;
    start_ = 0;
    if (input_.size() < bytes) input_.resize(bytes);
  }
  while (end_ - start_ < bytes) {
    const ssize_t got = ::read(peer_, input_.data() + end_, input_.size() - end_);
    if (got > 0) {
      end_ += static_cast<std::size_t>(got);
    } else if (got == 0 || errno == ECONNRESET) {
      failure_ = Received::kPeerLost;
      return false;
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      failure_ = Received::kTimeout;
      return false;
    } else if (errno != EINTR) {
      fail_with_errno("read");
    }
  }
  return true;
}

// False when the peer closed the connection.
bool ZmtpReplySocket::write_all(const std::string_view* parts, std::size_t count) {
  iovec pieces[3];
  std::size_t left = 0;
  for (std::size_t i = 0; i < count; ++i) {
    pieces[i] = {const_cast<char*>(parts[i].data()), parts[i].size()};
    left += parts[i].size();
  }
  msghdr message{};
  message.msg_iov = pieces;
  message.msg_iovlen = count;
  while (left > 0) {
    const ssize_t sent = ::sendmsg(peer_, &message, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      throw ZmtpError("the peer took nothing for the whole timeout");
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
