// `batfill serve` and RemoteDecisionProcess over real ZeroMQ sockets, on loopback only
// (tcp://127.0.0.1 and ipc:// in a temporary directory). Every wait is bounded.

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
    socket.connect(endpoint);
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
  return JobSubmitted{job, ""};
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
  EXPECT_EQ(server.wait(), kServeDone) << server.errors.str();
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

// 100 MB, far beyond any real message: serve drops the sender and reports it.
TEST(Zmq, ServeRefusesAMessageLargerThanTheLimit) {
  ServeOptions options = options_on(tcp_loopback_endpoint());
  ServeThread server(options);
  RawBatsim batsim(options.endpoint);
  ASSERT_NE(batsim.begin(), "");  // connected: the next message is the huge one
  const std::string huge =
      R"({"now":0,"events":[],"pad":")" + std::string(100'000'000, 'x') + "\"}";
  batsim.socket.send(zmq::buffer(huge));
  EXPECT_EQ(server.wait(), kServeSocketError);
  EXPECT_NE(server.errors.str().find("message #1 from " + options.endpoint +
                                     " is larger than 64 MiB (all its frames together)"),
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
  EXPECT_EQ(server.wait(), kServeDone) << server.errors.str();
}

// A peer that is not a ZeroMQ socket (here, an HTTP client): serve names what it got instead
// of waiting for a request that cannot come.
TEST(Zmq, ServeRefusesAPeerThatDoesNotSpeakZmtp) {
  ServeOptions options = options_on(tcp_loopback_endpoint());
  ServeThread server(options);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(
      std::stoi(options.endpoint.substr(options.endpoint.rfind(':') + 1))));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const int peer = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(peer, 0);
  // serve binds on its thread: retry until it listens.
  const auto give_up = std::chrono::steady_clock::now() + kBound;
  while (connect(peer, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ASSERT_LT(std::chrono::steady_clock::now(), give_up);
    std::this_thread::sleep_for(10ms);
  }
  std::string http = "GET / HTTP/1.0\r\n\r\n";
  http.resize(64, ' ');
  ASSERT_EQ(write(peer, http.data(), http.size()), 64);
  EXPECT_EQ(server.wait(), kServeSocketError);
  close(peer);
  EXPECT_NE(server.errors.str().find("receiving message #0: the peer does not speak ZMTP"),
            std::string::npos)
      << server.errors.str();
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

TEST(Zmq, ServeReportsAnEndpointItCannotBind) {
  ServeOptions options;
  options.endpoint = "nonsense://endpoint";
  std::ostringstream errors;
  EXPECT_EQ(serve(options, errors), kServeSocketError);
  EXPECT_NE(errors.str().find("cannot bind nonsense://endpoint"), std::string::npos)
      << errors.str();
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
