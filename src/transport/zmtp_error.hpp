#pragma once
// The one error type of serve's ZeroMQ endpoint. Private to src/transport.

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace batfill::transport {

// The connection broke the protocol (no ZMTP greeting, a multi-part request), the peer did not
// take a reply in time, or a system call failed.
class ZmtpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The system call `what` failed: errno names why.
[[noreturn]] inline void fail_with_errno(const std::string& what) {
  throw ZmtpError(what + ": " + std::strerror(errno));
}

}  // namespace batfill::transport
