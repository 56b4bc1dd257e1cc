#include "endpoint.hpp"

#include <algorithm>
#include <cctype>

namespace batfill::transport {
namespace {

constexpr const char* kShapes = "expected tcp://HOST:PORT or ipc://PATH";

// The transport and the address of `endpoint`, split at "://"; false if it has none.
bool split(const std::string& endpoint, std::string& transport, std::string& address) {
  const std::size_t scheme_end = endpoint.find("://");
  if (scheme_end == std::string::npos) return false;
  transport = endpoint.substr(0, scheme_end);
  address = endpoint.substr(scheme_end + 3);
  return true;
}

// The colon before the port of tcp://`address`, or npos: an IPv6 address has colons of its own,
// inside brackets.
std::size_t port_colon(const std::string& address) {
  const std::size_t colon = address.rfind(':');
  const std::size_t bracket = address.rfind(']');
  if (colon == std::string::npos || (bracket != std::string::npos && colon < bracket)) {
    return std::string::npos;
  }
  return colon;
}

bool is_port(const std::string& port) {
  if (port == "*") return true;  // libzmq picks a free one
  if (port.empty() || port.size() > 5) return false;
  if (!std::all_of(port.begin(), port.end(), [](char c) { return std::isdigit(c) != 0; })) {
    return false;
  }
  return std::stoi(port) <= 65535;
}

std::string tcp_fault(const std::string& address) {
  const std::size_t colon = port_colon(address);
  if (colon == std::string::npos) {
    return "no port in tcp://" + address + " (expected tcp://HOST:PORT)";
  }
  if (colon == 0) {
    return "no host in tcp://" + address + " (an address, a name, or * for every interface)";
  }
  const std::string port = address.substr(colon + 1);
  if (!is_port(port)) {
    return "the port '" + port + "' is not a number from 0 to 65535 (or * for any free port)";
  }
  return "";
}

}  // namespace

std::string endpoint_fault(const std::string& endpoint) {
  std::string transport;
  std::string address;
  if (!split(endpoint, transport, address)) return std::string("not an endpoint, ") + kShapes;
  if (transport == "tcp") return tcp_fault(address);
  if (transport == "ipc") return address.empty() ? "no path after ipc://" : "";
  return "unknown transport '" + transport + "://', " + kShapes;
}

bool needs_ipv6(const std::string& endpoint) {
  std::string transport;
  std::string address;
  if (!split(endpoint, transport, address) || transport != "tcp") return false;
  const std::string host = address.substr(0, port_colon(address));
  return host == "*" || host.find(':') != std::string::npos;
}

}  // namespace batfill::transport
