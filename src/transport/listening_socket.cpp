#include "listening_socket.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>

namespace batfill::transport {
namespace {

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
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
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
    fd = ::socket(at->ai_family, at->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, at->ai_protocol);
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

// Errors of accept() that concern one connection, not the listener: a signal, a connection
// reset before it was taken, or a network error pending on it (accept(2), "Error handling").
bool connection_gone(int error) {
  switch (error) {
    case EINTR:
    case EAGAIN:
    case ECONNABORTED:
    case EPROTO:
    case ENETDOWN:
    case ENOPROTOOPT:
    case EHOSTDOWN:
    case ENONET:
    case EHOSTUNREACH:
    case EOPNOTSUPP:
    case ENETUNREACH:
      return true;
    default:
      return false;
  }
}

int listen_on(const std::string& endpoint, std::string& created) {
  const std::size_t scheme = endpoint.find("://");
  const std::string transport = endpoint.substr(0, scheme);
  const std::string address = scheme == std::string::npos ? "" : endpoint.substr(scheme + 3);
  if (scheme != std::string::npos && transport == "tcp") return listen_tcp(address);
  if (scheme != std::string::npos && transport == "ipc") return listen_ipc(address, created);
  throw ZmtpError("not a tcp:// or ipc:// endpoint");
}

}  // namespace batfill::transport
