#pragma once
// The listening end of serve's endpoint, in libzmq's address syntax: tcp://HOST:PORT (HOST an
// address, a name, or * for every IPv4 interface) or ipc://PATH (a Unix socket, "@name" in the
// abstract namespace). Private to src/transport.

#include <string>

#include "zmtp_error.hpp"

namespace batfill::transport {

// A listening stream socket bound to `endpoint`, non-blocking so that a connection reset
// between poll and accept cannot hang accept. For ipc://PATH, `created` is set to the socket
// file the caller removes when done, as libzmq does. Throws ZmtpError.
int listen_on(const std::string& endpoint, std::string& created);

// Whether an accept() error concerns one connection rather than the listener: a signal, a
// connection reset before it was taken, or a network error pending on it.
bool connection_gone(int error);

}  // namespace batfill::transport
