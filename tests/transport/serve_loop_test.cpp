// serve's one loop, under Batsim 4 and Batsim 5 alike, over real sockets on loopback: the last
// reply outlives serve's exit, a port probe and a second Batsim disturb nothing, the size cap, a
// request in several parts, the endpoint check, a Batsim of the other protocol, and a signal
// (docs/protocol.md "Transport", docs/reliability.md). Every wait is bounded.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <thread>
#include <vector>

#include "ipc_endpoint.hpp"
#include "serve_support.hpp"

namespace batfill::transport {
namespace {

using adapter::Protocol;
using namespace testing;

class ServeLoop : public ::testing::TestWithParam<Protocol> {
 protected:
  ServeOptions options(const std::string& endpoint) const {
    return options_on(endpoint, kBound, GetParam());
  }
  ShortRun run() const { return short_run(GetParam()); }
  bool batsim5() const { return GetParam() == Protocol::kBatsim5; }

  // Sends the opening requests; false (and a failure) when one gets no reply.
  bool open(RawBatsim& batsim) const {
    for (const std::string& request : run().opening) {
      if (batsim.exchange(request).empty()) {
        ADD_FAILURE() << "no reply to an opening request";
        return false;
      }
    }
    return true;
  }
};

std::string protocol_name(const ::testing::TestParamInfo<Protocol>& info) {
  return info.param == Protocol::kBatsim4 ? "Batsim4" : "Batsim5";
}

INSTANTIATE_TEST_SUITE_P(Protocols, ServeLoop,
                         ::testing::Values(Protocol::kBatsim4, Protocol::kBatsim5), protocol_name);

// A submission of one job, `id`, needing more machines than the run's platform has: its
// rejection names it, so that its reply is as large as the id.
std::string oversized_job(Protocol protocol, const std::string& id) {
  if (protocol == Protocol::kBatsim4) {
    return R"({"now":0,"events":[{"timestamp":0,"type":"JOB_SUBMITTED","data":{"job_id":")" + id +
           R"(","job":{"id":")" + id + R"(","subtime":0,"res":5,"profile":"p","walltime":10}}}]})";
  }
  return R"({"now":0.0,"events":[{"timestamp":0.0,"event_type":"JobSubmittedEvent","event":)"
         R"({"job_id":")" +
         id + R"(","job":{"resource_request":5,"walltime":10.0},"submission_time":0.0}}]})";
}

// The reply to the simulation's end is the last thing serve sends; it returns right after.
// Here it waits behind 8 MB of replies the peer has not read yet (a DEALER that takes one
// message at a time, the rest held in the socket buffers and in serve's queue), and the peer
// reads them only a second after serve has answered everything: the socket's linger delivers
// it all the same. With linger 0 libzmq discards it at serve's exit, and the peer never gets it.
TEST_P(ServeLoop, TheLastReplyReachesAPeerThatReadsAfterServeBeganToExit) {
  const IpcEndpoint ipc("linger");
  ServeOptions served = options(ipc.endpoint);
  served.timeout = kLongBound;
  ServeThread server(served);
  zmq::context_t context;
  zmq::socket_t batsim(context, zmq::socket_type::dealer);
  batsim.set(zmq::sockopt::linger, 0);
  batsim.set(zmq::sockopt::rcvhwm, 1);
  batsim.set(zmq::sockopt::rcvtimeo, 60'000);
  batsim.connect(ipc.endpoint);
  std::vector<std::string> requests = run().opening;
  for (int job = 0; job < 4; ++job) {
    requests.push_back(
        oversized_job(GetParam(), "w0!" + std::to_string(job) + std::string(2'000'000, 'x')));
  }
  requests.push_back(run().ends);
  for (const std::string& request : requests) {
    batsim.send(zmq::str_buffer(""), zmq::send_flags::sndmore);
    batsim.send(zmq::buffer(request));
  }
  std::this_thread::sleep_for(1s);
  std::string last;
  for (std::size_t reply = 0; reply < requests.size(); ++reply) {
    zmq::message_t delimiter;
    zmq::message_t text;
    ASSERT_TRUE(batsim.recv(delimiter)) << "no reply #" << reply;
    ASSERT_TRUE(batsim.recv(text)) << "no reply #" << reply;
    last = text.to_string();
  }
  EXPECT_EQ(last, run().ends_reply);
  EXPECT_EQ(server.wait(kLongBound), kServeEnded) << server.errors.str();
}

// The TCP port of a tcp://HOST:PORT endpoint.
std::uint16_t port_of(const std::string& endpoint) {
  return static_cast<std::uint16_t>(std::stoi(endpoint.substr(endpoint.rfind(':') + 1)));
}

// A plain TCP connection to 127.0.0.1:`port`, retried until serve, binding on its thread,
// listens; -1 if it never does.
int connect_plain_tcp(std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const auto give_up = std::chrono::steady_clock::now() + kBound;
  while (std::chrono::steady_clock::now() < give_up) {
    const int peer = socket(AF_INET, SOCK_STREAM, 0);
    if (peer < 0) return -1;
    if (connect(peer, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
      return peer;
    }
    close(peer);
    std::this_thread::sleep_for(10ms);
  }
  return -1;
}

// serve reads the monitor while it waits for a request: this gives it the time to see what
// happened (else a test could pass without serve looking).
void let_serve_look() { std::this_thread::sleep_for(200ms); }

// Connections that never complete ZeroMQ's handshake are no peer: a port probe (connect, then
// close) before Batsim comes, then a probe and an HTTP client while it is connected, disturb
// neither serve nor Batsim.
TEST_P(ServeLoop, ConnectionsThatDoNotSpeakZeroMqAreNoPeer) {
  const ServeOptions served = options(tcp_loopback_endpoint());
  ServeThread server(served);
  const int early_probe = connect_plain_tcp(port_of(served.endpoint));
  ASSERT_GE(early_probe, 0);
  close(early_probe);
  let_serve_look();

  RawBatsim batsim(served.endpoint);
  ASSERT_TRUE(open(batsim));
  const int probe = connect_plain_tcp(port_of(served.endpoint));
  ASSERT_GE(probe, 0);
  close(probe);
  const int http = connect_plain_tcp(port_of(served.endpoint));
  ASSERT_GE(http, 0);
  std::string get = "GET / HTTP/1.0\r\n\r\n";
  get.resize(64, ' ');
  ASSERT_EQ(write(http, get.data(), get.size()), 64);
  close(http);
  let_serve_look();

  EXPECT_EQ(batsim.exchange(run().ends), run().ends_reply);
  EXPECT_EQ(server.wait(), kServeEnded) << server.errors.str();
}

// A second Batsim started on the same port gets a refusal it stops on, in its protocol (Batsim
// 5's after the flags word, as it reads the reply to its handshake); the first goes on, even
// when the second has gone.
TEST_P(ServeLoop, ASecondBatsimIsRefusedAndTheFirstGoesOn) {
  const ServeOptions served = options(tcp_loopback_endpoint());
  ServeThread server(served);
  RawBatsim first(served.endpoint);
  ASSERT_FALSE(first.exchange(run().opening[0]).empty());
  {
    RawBatsim second(served.endpoint);
    const std::string refusal = second.exchange(run().opening[0]);
    const std::string what = "batfill error: batfill serve on " + served.endpoint +
                             " already answers another Batsim: start one batfill serve per Batsim";
    if (batsim5()) {
      EXPECT_EQ(flags_of(refusal), 0x2u);
      EXPECT_EQ(refusal.substr(4), R"({"now":0.0,"events":[],")" + what + R"(":0})");
    } else {
      EXPECT_EQ(refusal, R"({"now":0.000000,"events":[{"timestamp":0.000000,"type":"NOTIFY",)"
                         R"("data":{"type":")" +
                             what + R"("}}]})");
    }
  }  // the second Batsim aborts and its connection closes
  let_serve_look();
  for (std::size_t k = 1; k < run().opening.size(); ++k) {
    EXPECT_FALSE(first.exchange(run().opening[k]).empty());
  }
  EXPECT_EQ(first.exchange(run().ends), run().ends_reply);
  EXPECT_EQ(server.wait(), kServeEnded) << server.errors.str();
  EXPECT_NE(server.errors.str().find("batfill serve: refused a second Batsim"), std::string::npos)
      << server.errors.str();
}

// 70 MiB, above the 64 MiB cap: libzmq drops the sender before reading it (ZMQ_MAXMSGSIZE), and
// serve, seeing the connection closed, says why it may have been.
// Written before serve's clock runs: on a loaded machine, making and sending 70 MiB may take
// seconds, which this test's longer bound allows too.
TEST_P(ServeLoop, AMessageLargerThanTheCapEndsTheRun) {
  const std::string huge = R"({"now":0,"events":[],"pad":")" + std::string(70 << 20, 'x') + "\"}";
  ServeOptions served = options(tcp_loopback_endpoint());
  served.timeout = kLongBound;
  ServeThread server(served);
  RawBatsim batsim(served.endpoint);
  ASSERT_TRUE(open(batsim));
  batsim.socket.send(zmq::buffer(huge));
  EXPECT_EQ(server.wait(kLongBound), kServeSocketError);
  EXPECT_NE(server.errors.str().find("Batsim closed the connection on " + served.endpoint +
                                     " before message #1: it exited or crashed, or sent a "
                                     "message larger than 64 MiB"),
            std::string::npos)
      << server.errors.str();
}

// Batsim sends each request as one part; a request in several is refused naming it, and the
// reply stops Batsim as for any request batfill cannot apply (docs/protocol.md#protocol-errors).
TEST_P(ServeLoop, ARequestInSeveralPartsIsRefused) {
  const IpcEndpoint ipc("parts");
  ServeThread server(options(ipc.endpoint));
  RawBatsim batsim(ipc.endpoint);
  const std::string first = run().opening[0];
  batsim.socket.send(zmq::buffer(first.substr(0, 6)), zmq::send_flags::sndmore);
  batsim.socket.send(zmq::buffer(first.substr(6)), zmq::send_flags::sndmore);
  batsim.socket.send(zmq::str_buffer(""));
  EXPECT_EQ(server.wait(), kServeProtocolError);
  const std::string request = batsim5() ? "the init message" : "message #0";
  EXPECT_NE(server.errors.str().find("batfill serve: " + request +
                                     " is in 3 parts: Batsim sends each request as one"),
            std::string::npos)
      << server.errors.str();
  zmq::message_t reply;
  ASSERT_TRUE(batsim.socket.recv(reply));
  EXPECT_NE(reply.to_string().find("batfill error: " + request + " is in 3 parts"),
            std::string::npos)
      << reply.to_string();
  if (batsim5()) EXPECT_EQ(flags_of(reply.to_string()), 0x2u);
}

// What serve prints for an endpoint it cannot bind.
std::string bind_error(const ServeOptions& options) {
  std::ostringstream errors;
  EXPECT_EQ(serve(options, errors), kServeSocketError) << options.endpoint;
  return errors.str();
}

// Each malformed endpoint is refused naming the part that is wrong, not with libzmq's
// "Invalid argument", and a port beyond 65535 is not taken modulo 65536.
TEST_P(ServeLoop, WhatIsWrongWithAnEndpointIsNamed) {
  const auto error = [this](const std::string& endpoint) { return bind_error(options(endpoint)); };
  EXPECT_EQ(error("bogus://x"),
            "batfill serve: cannot bind bogus://x: unknown transport 'bogus://', expected "
            "tcp://HOST:PORT or ipc://PATH\n");
  EXPECT_EQ(error("localhost:28000"),
            "batfill serve: cannot bind localhost:28000: not an endpoint, expected "
            "tcp://HOST:PORT or ipc://PATH\n");
  EXPECT_EQ(error("ipc://"), "batfill serve: cannot bind ipc://: no path after ipc://\n");
  EXPECT_EQ(error("tcp://127.0.0.1"),
            "batfill serve: cannot bind tcp://127.0.0.1: no port in tcp://127.0.0.1 (expected "
            "tcp://HOST:PORT)\n");
  EXPECT_EQ(error("tcp://[::1]"),
            "batfill serve: cannot bind tcp://[::1]: no port in tcp://[::1] (expected "
            "tcp://HOST:PORT)\n");
  EXPECT_EQ(error("tcp://:28000"),
            "batfill serve: cannot bind tcp://:28000: no host in tcp://:28000 (an address, a "
            "name, or * for every interface)\n");
  EXPECT_EQ(error("tcp://127.0.0.1:http"),
            "batfill serve: cannot bind tcp://127.0.0.1:http: the port 'http' is not a number "
            "from 0 to 65535 (or * for any free port)\n");
  EXPECT_EQ(error("tcp://127.0.0.1:99999"),
            "batfill serve: cannot bind tcp://127.0.0.1:99999: the port '99999' is not a number "
            "from 0 to 65535 (or * for any free port)\n");
}

// A well-formed endpoint that cannot be bound: libzmq's reason, after the endpoint.
TEST_P(ServeLoop, AnEndpointAlreadyInUseIsNamed) {
  zmq::context_t context;
  zmq::socket_t taken(context, zmq::socket_type::rep);
  taken.set(zmq::sockopt::linger, 0);
  taken.bind("tcp://127.0.0.1:*");
  const std::string endpoint = taken.get(zmq::sockopt::last_endpoint);
  EXPECT_EQ(bind_error(options(endpoint)),
            "batfill serve: cannot bind " + endpoint + ": Address already in use\n");
}

// Whether this machine has an IPv6 loopback to bind.
bool has_ipv6_loopback() {
  const int probe = socket(AF_INET6, SOCK_STREAM, 0);
  if (probe < 0) return false;
  sockaddr_in6 address{};
  address.sin6_family = AF_INET6;
  address.sin6_addr = in6addr_loopback;
  const bool bound = bind(probe, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  close(probe);
  return bound;
}

TEST_P(ServeLoop, AnIpv6AddressIsBound) {
  if (!has_ipv6_loopback()) GTEST_SKIP() << "no IPv6 loopback (::1) on this machine";
  const std::string endpoint = "tcp://[::1]:" + std::to_string(port_of(tcp_loopback_endpoint()));
  ServeThread server(options(endpoint));
  RawBatsim batsim(endpoint);
  ASSERT_TRUE(open(batsim));
  EXPECT_EQ(batsim.exchange(run().ends), run().ends_reply);
  EXPECT_EQ(server.wait(), kServeEnded) << server.errors.str();
}

// serve interrupted while Batsim simulates: Batsim's next request is answered with the notice
// that stops it, naming the signal, instead of no reply at all.
TEST_P(ServeLoop, ASignalStopsBatsimAtItsNextRequest) {
  const IpcEndpoint ipc("signal");
  ServeThread server(options(ipc.endpoint));
  RawBatsim batsim(ipc.endpoint);
  ASSERT_TRUE(open(batsim));  // serve's loop, which notes the signals, is running
  ASSERT_EQ(kill(getpid(), SIGTERM), 0);
  let_serve_look();
  const std::string notice = batsim.exchange(run().ends);
  const std::string what =
      "batfill error: batfill serve was interrupted by SIGTERM before answering message #1";
  if (batsim5()) {
    EXPECT_EQ(notice, R"({"now":0.0,"events":[],")" + what + R"(":0})");
  } else {
    EXPECT_EQ(notice, R"({"now":0.000000,"events":[{"timestamp":0.000000,"type":"NOTIFY",)"
                      R"("data":{"type":")" +
                          what + R"("}}]})");
  }
  EXPECT_EQ(server.wait(), kServeInterrupted + SIGTERM) << server.errors.str();
}

// A Batsim of the other protocol is told which one it speaks, in its own protocol, and stops.
TEST(ServeLoopProtocols, ABatsim5AtABatsim4ServeIsToldSo) {
  const IpcEndpoint ipc("five");
  ServeThread server(options_on(ipc.endpoint, kBound, Protocol::kBatsim4));
  RawBatsim batsim(ipc.endpoint);
  const std::string notice = batsim.exchange(handshake_request(R"({"format_json":true})"));
  EXPECT_EQ(flags_of(notice), 0x2u);
  EXPECT_EQ(notice.substr(4),
            R"({"now":0.0,"events":[],"batfill error: message #0 is Batsim 5's init message: )"
            R"(this is Batsim 5: use `batfill serve --protocol batsim5`":0})");
  EXPECT_EQ(server.wait(), kServeProtocolError);
}

TEST(ServeLoopProtocols, ABatsim4AtABatsim5ServeIsToldSo) {
  const IpcEndpoint ipc("four");
  ServeThread server(options_on(ipc.endpoint, kBound, Protocol::kBatsim5));
  RawBatsim batsim(ipc.endpoint);
  EXPECT_EQ(batsim.begin(),
            R"({"now":0.000000,"events":[{"timestamp":0.000000,"type":"NOTIFY","data":{"type":)"
            R"("batfill error: the init message is a Batsim 4 message: this is Batsim 4: use )"
            R"x(`batfill serve --protocol batsim4` (the default)"}}]})x");
  EXPECT_EQ(server.wait(), kServeProtocolError);
}

}  // namespace
}  // namespace batfill::transport
