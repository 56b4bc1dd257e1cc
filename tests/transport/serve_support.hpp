#pragma once
// serve() on a thread, and raw peers playing Batsim 4's or Batsim 5's side with a socket of
// their own, for the transport tests. Every wait is bounded.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <future>
#include <sstream>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "batfill/transport/serve.hpp"

namespace batfill::transport::testing {

using namespace std::chrono_literals;

inline constexpr auto kBound = std::chrono::seconds(10);  // on every wait; tests take ms
// For a test that moves tens of megabytes, on a machine other work may load.
inline constexpr auto kLongBound = std::chrono::seconds(60);

// A free loopback port: bind to an ephemeral one, note it, release it.
inline std::string tcp_loopback_endpoint() {
  zmq::context_t context;
  zmq::socket_t probe(context, zmq::socket_type::rep);
  probe.set(zmq::sockopt::linger, 0);
  probe.bind("tcp://127.0.0.1:*");
  return probe.get(zmq::sockopt::last_endpoint);
}

// serve's options on `endpoint`, waiting at most `timeout` for each request.
inline ServeOptions options_on(const std::string& endpoint,
                               std::chrono::milliseconds timeout = kBound,
                               adapter::Protocol protocol = adapter::Protocol::kBatsim4) {
  ServeOptions options;
  options.endpoint = endpoint;
  options.timeout = timeout;
  options.protocol = protocol;
  return options;
}

// serve() on a thread; its status and what it printed.
struct ServeThread {
  explicit ServeThread(ServeOptions options) {
    options.verbosity = adapter::Verbosity::kQuiet;
    status = std::async(std::launch::async, [this, options] { return serve(options, errors); });
  }
  int wait(std::chrono::seconds bound = kBound) {
    if (status.wait_for(bound) != std::future_status::ready) {
      ADD_FAILURE() << "serve did not return";
      std::abort();  // a detached serve() would outlive the test's objects
    }
    return status.get();
  }
  std::ostringstream errors;
  std::future<int> status;
};

// Batsim 5's handshake: a native-endian u32 length, then the init string.
inline std::string handshake_request(const std::string& init) {
  const auto length = static_cast<std::uint32_t>(init.size());
  std::string request(sizeof length, '\0');
  std::memcpy(request.data(), &length, sizeof length);
  return request + init;
}

// The flags word in front of a handshake reply.
inline std::uint32_t flags_of(const std::string& reply) {
  std::uint32_t flags = 0;
  if (reply.size() >= sizeof flags) std::memcpy(&flags, reply.data(), sizeof flags);
  return flags;
}

// Batsim 5's SimulationBegins on 1 machine, the request after its handshake.
inline const char* const kBatsim5Begins =
    R"({"now":0.0,"events":[{"timestamp":0.0,"event_type":"SimulationBeginsEvent","event":)"
    R"({"computation_host_number":1,"computation_hosts":[{"id":0,"name":"n0"}]}}]})";

// The requests of a short run in `protocol`, and the reply to its last.
struct ShortRun {
  std::vector<std::string> opening;  // Batsim 5's handshake, then the simulation's beginning
  std::string ends;                  // the request of the simulation's end
  std::string ends_reply;
};

inline ShortRun short_run(adapter::Protocol protocol) {
  if (protocol == adapter::Protocol::kBatsim4) {
    return {{R"({"now":0,"events":[{"timestamp":0,"type":"SIMULATION_BEGINS",)"
             R"("data":{"nb_compute_resources":2}}]})"},
            R"({"now":1,"events":[{"timestamp":1,"type":"SIMULATION_ENDS","data":{}}]})",
            R"({"now":1.000000,"events":[]})"};
  }
  return {{handshake_request("{}"), kBatsim5Begins},
          R"({"now":1.0,"events":[{"timestamp":1.0,"event_type":"SimulationEndsEvent",)"
          R"("event":{}}]})",
          R"({"now":1.000000,"events":[]})"};
}

// A raw REQ peer, as Batsim's socket is (or a DEALER, which frames its envelope itself), for
// what RemoteDecisionProcess would refuse to send.
struct RawBatsim {
  explicit RawBatsim(const std::string& endpoint, zmq::socket_type type = zmq::socket_type::req)
      : socket(context, type) {
    socket.set(zmq::sockopt::linger, 0);
    socket.set(zmq::sockopt::rcvtimeo, 10'000);
    socket.set(zmq::sockopt::ipv6, true);  // for tcp://[::1]:PORT; IPv4 addresses still work
    socket.connect(endpoint);
  }
  // The reply to `request`, empty if none came.
  std::string exchange(const std::string& request) {
    socket.send(zmq::buffer(request));
    zmq::message_t reply;
    return socket.recv(reply) ? reply.to_string() : "";
  }
  // SIMULATION_ENDS; the reply, empty if none came.
  std::string end() {
    return exchange(R"({"now":1,"events":[{"timestamp":1,"type":"SIMULATION_ENDS","data":{}}]})");
  }
  // SIMULATION_BEGINS on 2 machines; the reply, empty if none came.
  std::string begin() { return exchange(short_run(adapter::Protocol::kBatsim4).opening[0]); }
  zmq::context_t context;
  zmq::socket_t socket;
};

}  // namespace batfill::transport::testing
