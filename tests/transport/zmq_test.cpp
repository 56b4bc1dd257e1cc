// `batfill serve` and RemoteDecisionProcess over real ZeroMQ sockets, on loopback only
// (tcp://127.0.0.1, tcp://[::1] when the machine has it, and ipc:// in a temporary directory).
// Every wait is bounded.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <sstream>
#include <thread>
#include <zmq.hpp>

#include "batfill/protocol/codec.hpp"
#include "batfill/transport/remote_decision_process.hpp"
#include "batfill/transport/serve.hpp"
#include "ipc_endpoint.hpp"

namespace batfill::transport {
namespace {

using testing::IpcEndpoint;

using namespace batfill::protocol;
using adapter::Verbosity;

using namespace std::chrono_literals;

constexpr auto kBound = 10s;  // generous bound on every wait; tests finish in milliseconds

// A free loopback port: bind to an ephemeral one, note it, release it.
std::string tcp_loopback_endpoint() {
  zmq::context_t context;
  zmq::socket_t probe(context, zmq::socket_type::rep);
  probe.set(zmq::sockopt::linger, 0);
  probe.bind("tcp://127.0.0.1:*");
  return probe.get(zmq::sockopt::last_endpoint);
}

// serve's options on `endpoint`, waiting at most `timeout` for each request.
ServeOptions options_on(const std::string& endpoint, std::chrono::milliseconds timeout = kBound) {
  ServeOptions options;
  options.endpoint = endpoint;
  options.timeout = timeout;
  return options;
}

// serve() on a thread; its status and what it printed.
struct ServeThread {
  explicit ServeThread(ServeOptions options) {
    options.verbosity = Verbosity::kQuiet;
    status = std::async(std::launch::async, [this, options] { return serve(options, errors); });
  }
  int wait() {
    if (status.wait_for(kBound) != std::future_status::ready) {
      ADD_FAILURE() << "serve did not return";
      std::abort();  // a detached serve() would outlive the test's objects
    }
    return status.get();
  }
  std::ostringstream errors;
  std::future<int> status;
};

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
  // SIMULATION_ENDS; the reply, empty if none came.
  std::string end() {
    socket.send(zmq::str_buffer(
        R"({"now":1,"events":[{"timestamp":1,"type":"SIMULATION_ENDS","data":{}}]})"));
    zmq::message_t reply;
    return socket.recv(reply) ? reply.to_string() : "";
  }
  // SIMULATION_BEGINS on 2 machines; the reply, empty if none came.
  std::string begin() {
    socket.send(zmq::str_buffer(R"({"now":0,"events":[{"timestamp":0,"type":"SIMULATION_BEGINS",)"
                                R"("data":{"nb_compute_resources":2}}]})"));
    zmq::message_t reply;
    return socket.recv(reply) ? reply.to_string() : "";
  }
  zmq::context_t context;
  zmq::socket_t socket;
};

Message request(Time now, std::vector<EventData> events) {
  Message message;
  message.now = now;
  for (EventData& data : events) message.events.push_back(Event{now, std::move(data)});
  return message;
}

JobSubmitted submission(const std::string& id, int res, int walltime_s) {
  SubmittedJob job;
  job.id = id;
  job.res = res;
  job.profile = "p";
  job.walltime = from_seconds(walltime_s);
  return JobSubmitted{job};
}

std::string decisions(const Message& reply) {
  std::string text;
  for (const Event& event : reply.events) {
    text += event_type_name(event.data) + " ";
    if (const auto* execute = std::get_if<ExecuteJob>(&event.data)) {
      text += execute->job_id + " " + to_string(execute->alloc) + "; ";
    } else if (const auto* reject = std::get_if<RejectJob>(&event.data)) {
      text += reject->job_id + "; ";
    }
  }
  return text;
}

// A whole simulation through serve, as Batsim would drive it. Expected starts by the spec's
// EASY on 4 machines: at 1, a (2 nodes) starts; b (4 nodes) is
// blocked until a's planned end 101; c (2 nodes, limit 50) ends at 51 < 101 and fits: backfilled.
TEST(Zmq, ServeRunsAScriptedSimulationOverLoopbackTcp) {
  ServeOptions options = options_on(tcp_loopback_endpoint());
  options.policy = "easy";
  ServeThread server(options);

  RemoteDecisionProcess batsim(options.endpoint, kBound);
  SimulationBegins begins;
  begins.nb_compute_resources = 4;
  for (int id = 0; id < 4; ++id)
    begins.compute_resources.push_back({id, "n" + std::to_string(id), "idle", {}});
  EXPECT_EQ(decisions(batsim.exchange(request(0, {begins}))), "");

  const Message started = batsim.exchange(
      request(from_seconds(1),
              {submission("w0!a", 2, 100), submission("w0!b", 4, 100), submission("w0!c", 2, 50)}));
  EXPECT_EQ(started.now, from_seconds(1));
  EXPECT_EQ(decisions(started), "EXECUTE_JOB w0!a 0-1; EXECUTE_JOB w0!c 2-3; ");

  EXPECT_EQ(decisions(batsim.exchange(request(
                from_seconds(41),
                {JobCompleted{"w0!c", "COMPLETED_SUCCESSFULLY", 0, parse_machine_set("2-3")}}))),
            "");
  EXPECT_EQ(decisions(batsim.exchange(request(
                from_seconds(60),
                {JobCompleted{"w0!a", "COMPLETED_SUCCESSFULLY", 0, parse_machine_set("0-1")}}))),
            "EXECUTE_JOB w0!b 0-3; ");
  EXPECT_EQ(decisions(batsim.exchange(request(
                from_seconds(90),
                {JobCompleted{"w0!b", "COMPLETED_SUCCESSFULLY", 0, parse_machine_set("0-3")}}))),
            "");
  const Message end = batsim.exchange(request(from_seconds(90), {SimulationEnds{}}));
  EXPECT_TRUE(end.events.empty());
  EXPECT_EQ(end.now, from_seconds(90));
  EXPECT_EQ(server.wait(), kServeEnded) << server.errors.str();
}

TEST(Zmq, ServeGivesUpWhenBatsimIsSilent) {
  const IpcEndpoint ipc("silent");
  ServeOptions options = options_on(ipc.endpoint, 100ms);
  ServeThread server(options);
  EXPECT_EQ(server.wait(), kServeTimeout);
  EXPECT_NE(server.errors.str().find("no message from Batsim for 0.1 s"), std::string::npos)
      << server.errors.str();
  EXPECT_NE(server.errors.str().find("is it still running?"), std::string::npos);
}

TEST(Zmq, ServeExitsCleanlyOnABadMessage) {
  const IpcEndpoint ipc("bad");
  ServeOptions options = options_on(ipc.endpoint);
  ServeThread server(options);

  RawBatsim batsim(options.endpoint);
  EXPECT_EQ(batsim.begin(), R"({"now":0.000000,"events":[]})");
  batsim.socket.send(
      zmq::str_buffer(R"({"now":1,"events":[{"timestamp":1,"type":"FOO","data":{}}]})"));

  EXPECT_EQ(server.wait(), kServeProtocolError);
  const std::string errors = server.errors.str();
  EXPECT_NE(errors.find("batfill serve: message #1: event 0 (FOO): unknown event type 'FOO'"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find(R"(the message was: {"now":1,)"), std::string::npos) << errors;
  // Batsim gets a reply that makes it abort quoting the error, instead of waiting forever.
  zmq::message_t reply;
  ASSERT_TRUE(batsim.socket.recv(reply));
  EXPECT_EQ(reply.to_string(),
            R"({"now":0.000000,"events":[{"timestamp":0.000000,"type":"NOTIFY","data":{"type":)"
            R"("batfill error: message #1: event 0 (FOO): unknown event type 'FOO'"}}]})");
}

// Batsim dies after SIMULATION_BEGINS: serve notices the closed connection at once instead of
// waiting for its whole --timeout (docs/protocol.md §1.4).
TEST(Zmq, ServeNoticesThatBatsimDiedMidRun) {
  ServeOptions options = options_on(tcp_loopback_endpoint());
  ServeThread server(options);
  const auto start = std::chrono::steady_clock::now();
  {
    RawBatsim batsim(options.endpoint);
    ASSERT_NE(batsim.begin(), "");
  }  // the socket closes as a dying process's would
  EXPECT_EQ(server.wait(), kServeSocketError);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_NE(server.errors.str().find("Batsim closed the connection on " + options.endpoint +
                                     " before message #1: it exited or crashed"),
            std::string::npos)
      << server.errors.str();
}

// 100 MB, far beyond any real message: libzmq drops the sender (ZMQ_MAXMSGSIZE), and serve,
// seeing the connection closed, reports it.
TEST(Zmq, ServeRefusesAMessageLargerThanTheLimit) {
  ServeOptions options = options_on(tcp_loopback_endpoint());
  ServeThread server(options);
  RawBatsim batsim(options.endpoint);
  ASSERT_NE(batsim.begin(), "");  // connected: the next message is the huge one
  const std::string huge =
      R"({"now":0,"events":[],"pad":")" + std::string(100'000'000, 'x') + "\"}";
  batsim.socket.send(zmq::buffer(huge));
  EXPECT_EQ(server.wait(), kServeSocketError);
  EXPECT_NE(server.errors.str().find("Batsim closed the connection on " + options.endpoint +
                                     " before message #1: it exited or crashed, or sent a "
                                     "message larger than 64 MiB"),
            std::string::npos)
      << server.errors.str();
}

// A DEALER peer puts the REQ envelope (an empty delimiter) in front of each request itself and
// gets it back in front of each reply.
TEST(Zmq, ServeAnswersADealerBehindItsEnvelope) {
  const IpcEndpoint ipc("dealer");
  ServeOptions options = options_on(ipc.endpoint);
  ServeThread server(options);
  RawBatsim dealer(options.endpoint, zmq::socket_type::dealer);
  zmq::socket_t& batsim = dealer.socket;
  const auto exchange = [&batsim](const std::string& request) {
    batsim.send(zmq::str_buffer(""), zmq::send_flags::sndmore);
    batsim.send(zmq::buffer(request));
    zmq::message_t delimiter;
    zmq::message_t reply;
    EXPECT_TRUE(batsim.recv(delimiter));
    EXPECT_EQ(delimiter.size(), 0u);
    EXPECT_TRUE(delimiter.more());
    EXPECT_TRUE(batsim.recv(reply));
    return reply.to_string();
  };
  EXPECT_EQ(exchange(R"({"now":0,"events":[{"timestamp":0,"type":"SIMULATION_BEGINS",)"
                     R"("data":{"nb_compute_resources":2}}]})"),
            R"({"now":0.000000,"events":[]})");
  EXPECT_EQ(exchange(R"({"now":1,"events":[{"timestamp":1,"type":"SIMULATION_ENDS","data":{}}]})"),
            R"({"now":1.000000,"events":[]})");
  EXPECT_EQ(server.wait(), kServeEnded) << server.errors.str();
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

// Connections that never complete ZeroMQ's handshake are no peer: a port probe (connect, then
// close) and an HTTP client, both while Batsim is connected, disturb neither serve nor Batsim.
TEST(Zmq, ServeIgnoresConnectionsThatDoNotSpeakZeroMq) {
  ServeOptions options = options_on(tcp_loopback_endpoint());
  ServeThread server(options);
  RawBatsim batsim(options.endpoint);
  EXPECT_EQ(batsim.begin(), R"({"now":0.000000,"events":[]})");

  const int probe = connect_plain_tcp(port_of(options.endpoint));
  ASSERT_GE(probe, 0);
  close(probe);
  const int http = connect_plain_tcp(port_of(options.endpoint));
  ASSERT_GE(http, 0);
  std::string get = "GET / HTTP/1.0\r\n\r\n";
  get.resize(64, ' ');
  ASSERT_EQ(write(http, get.data(), get.size()), 64);
  close(http);
  // serve reads the monitor while it waits for a request: give it the time to see both ends
  // (else the test could pass without serve looking).
  std::this_thread::sleep_for(200ms);

  EXPECT_EQ(batsim.end(), R"({"now":1.000000,"events":[]})");
  EXPECT_EQ(server.wait(), kServeEnded) << server.errors.str();
}

// Batsim sends each request as one part; a request in several is refused naming it, and the
// reply stops Batsim as for any request batfill cannot apply (docs/protocol.md §3.11).
TEST(Zmq, ServeRefusesARequestInSeveralParts) {
  const IpcEndpoint ipc("parts");
  ServeOptions options = options_on(ipc.endpoint);
  ServeThread server(options);
  RawBatsim batsim(options.endpoint);
  batsim.socket.send(zmq::str_buffer(R"({"now":0,)"), zmq::send_flags::sndmore);
  batsim.socket.send(zmq::str_buffer(R"("events":[]})"), zmq::send_flags::sndmore);
  batsim.socket.send(zmq::str_buffer(""));
  EXPECT_EQ(server.wait(), kServeProtocolError);
  EXPECT_NE(server.errors.str().find("batfill serve: message #0 is in 3 parts: Batsim sends "
                                     "each request as one"),
            std::string::npos)
      << server.errors.str();
  zmq::message_t reply;
  ASSERT_TRUE(batsim.socket.recv(reply));
  EXPECT_NE(reply.to_string().find(R"("type":"batfill error: message #0 is in 3 parts)"),
            std::string::npos)
      << reply.to_string();
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

// serve bound to `endpoint` answers a two-message run from a peer connecting to `peer`.
void expect_a_short_run(const std::string& endpoint, const std::string& peer) {
  ServeThread server(options_on(endpoint));
  RawBatsim batsim(peer);
  EXPECT_EQ(batsim.begin(), R"({"now":0.000000,"events":[]})");
  EXPECT_EQ(batsim.end(), R"({"now":1.000000,"events":[]})");
  EXPECT_EQ(server.wait(), kServeEnded) << server.errors.str();
}

TEST(Zmq, ServeBindsAnIpv6Address) {
  if (!has_ipv6_loopback()) GTEST_SKIP() << "no IPv6 loopback (::1) on this machine";
  const std::string endpoint = "tcp://[::1]:" + std::to_string(port_of(tcp_loopback_endpoint()));
  expect_a_short_run(endpoint, endpoint);
}

// tcp://*:PORT is every interface, IPv6 ones included, as well as IPv4 ones.
TEST(Zmq, ServeOnEveryInterfaceAcceptsIpv6) {
  if (!has_ipv6_loopback()) GTEST_SKIP() << "no IPv6 loopback (::1) on this machine";
  const std::string port = std::to_string(port_of(tcp_loopback_endpoint()));
  expect_a_short_run("tcp://*:" + port, "tcp://[::1]:" + port);
}

TEST(Zmq, ServeOnEveryInterfaceAcceptsIpv4) {
  const std::string port = std::to_string(port_of(tcp_loopback_endpoint()));
  expect_a_short_run("tcp://*:" + port, "tcp://127.0.0.1:" + port);
}

TEST(Zmq, RemoteDecisionProcessNoticesThatTheSchedulerDied) {
  const std::string endpoint = tcp_loopback_endpoint();
  auto scheduler_side = std::async(std::launch::async, [&] {
    zmq::context_t context;
    zmq::socket_t scheduler(context, zmq::socket_type::rep);
    scheduler.set(zmq::sockopt::linger, 0);
    scheduler.set(zmq::sockopt::rcvtimeo, 10'000);
    scheduler.bind(endpoint);
    zmq::message_t request;
    (void)scheduler.recv(request);
  });  // receives one request, then dies without replying
  RemoteDecisionProcess batsim(endpoint, kBound);
  const auto start = std::chrono::steady_clock::now();
  try {
    batsim.exchange(request(0, {RequestedCall{}}));
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the scheduler at " + endpoint +
                                         " closed the connection: it exited or crashed"),
              std::string::npos)
        << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  scheduler_side.wait();
}

// What serve prints for an endpoint it cannot bind.
std::string bind_error(const std::string& endpoint) {
  std::ostringstream errors;
  EXPECT_EQ(serve(options_on(endpoint), errors), kServeSocketError) << endpoint;
  return errors.str();
}

// Each malformed endpoint is refused naming the part that is wrong, not with libzmq's
// "Invalid argument".
TEST(Zmq, ServeNamesWhatIsWrongWithAnEndpoint) {
  EXPECT_EQ(bind_error("bogus://x"),
            "batfill serve: cannot bind bogus://x: unknown transport 'bogus://', expected "
            "tcp://HOST:PORT or ipc://PATH\n");
  EXPECT_EQ(bind_error("localhost:28000"),
            "batfill serve: cannot bind localhost:28000: not an endpoint, expected "
            "tcp://HOST:PORT or ipc://PATH\n");
  EXPECT_EQ(bind_error("ipc://"), "batfill serve: cannot bind ipc://: no path after ipc://\n");
  EXPECT_EQ(bind_error("tcp://127.0.0.1"),
            "batfill serve: cannot bind tcp://127.0.0.1: no port in tcp://127.0.0.1 (expected "
            "tcp://HOST:PORT)\n");
  EXPECT_EQ(bind_error("tcp://[::1]"),
            "batfill serve: cannot bind tcp://[::1]: no port in tcp://[::1] (expected "
            "tcp://HOST:PORT)\n");
  EXPECT_EQ(bind_error("tcp://:28000"),
            "batfill serve: cannot bind tcp://:28000: no host in tcp://:28000 (an address, a "
            "name, or * for every interface)\n");
  EXPECT_EQ(bind_error("tcp://127.0.0.1:http"),
            "batfill serve: cannot bind tcp://127.0.0.1:http: the port 'http' is not a number "
            "from 0 to 65535 (or * for any free port)\n");
  EXPECT_NE(bind_error("tcp://127.0.0.1:65536").find("the port '65536' is not a number"),
            std::string::npos);
}

// A well-formed endpoint that cannot be bound: libzmq's reason, after the endpoint.
TEST(Zmq, ServeReportsAnEndpointAlreadyInUse) {
  zmq::context_t context;
  zmq::socket_t taken(context, zmq::socket_type::rep);
  taken.set(zmq::sockopt::linger, 0);
  taken.bind("tcp://127.0.0.1:*");
  const std::string endpoint = taken.get(zmq::sockopt::last_endpoint);
  EXPECT_EQ(bind_error(endpoint),
            "batfill serve: cannot bind " + endpoint + ": Address already in use\n");
}

TEST(Zmq, RemoteDecisionProcessNamesWhatIsWrongWithAnEndpoint) {
  try {
    RemoteDecisionProcess scheduler("ipc://", kBound);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "cannot connect to the scheduler at ipc://: no path after ipc://");
  }
}

TEST(Zmq, RemoteDecisionProcessTimesOutNamingTheEndpoint) {
  const IpcEndpoint ipc("nobody");
  const std::string& endpoint = ipc.endpoint;
  RemoteDecisionProcess scheduler(endpoint, 100ms);
  try {
    scheduler.exchange(request(0, {RequestedCall{}}));
    ADD_FAILURE() << "no timeout";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(
        std::string(e.what()).find("no reply from the scheduler at " + endpoint + " within 0.1 s"),
        std::string::npos)
        << e.what();
  }
  EXPECT_THROW(scheduler.exchange(request(0, {RequestedCall{}})), std::runtime_error);
}

}  // namespace
}  // namespace batfill::transport
