#pragma once
// A ZeroMQ endpoint as batfill accepts it, on either end: tcp://HOST:PORT or ipc://PATH
// (docs/protocol.md#sockets). Checked before libzmq sees it, whose own errors ("Protocol not
// supported", "Invalid argument") do not say which part is wrong. Private to src/transport.

#include <string>

namespace batfill::transport {

// Empty when `endpoint` has the shape tcp://HOST:PORT or ipc://PATH; else what is wrong.
std::string endpoint_fault(const std::string& endpoint);

// Whether a socket on `endpoint` needs ZMQ_IPV6: tcp://*:PORT (every interface, IPv6 ones too)
// or an IPv6 address (tcp://[::1]:PORT). A host name stays IPv4: with ZMQ_IPV6, libzmq resolves
// "localhost" to ::1, where a Batsim connecting over IPv4, as it does by default, never arrives.
bool needs_ipv6(const std::string& endpoint);

}  // namespace batfill::transport
