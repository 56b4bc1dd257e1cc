// `batfill serve` and RemoteDecisionProcess over real ZeroMQ sockets, on loopback only
// (tcp://127.0.0.1, tcp://[::1] when the machine has it, and ipc:// in a temporary directory).
// Every wait is bounded.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <future>
#include <sstream>
#include <zmq.hpp>

#include "batfill/protocol/codec.hpp"
#include "batfill/transport/remote_decision_process.hpp"
#include "batfill/transport/serve.hpp"
#include "ipc_endpoint.hpp"
#include "serve_support.hpp"

namespace batfill::transport {
namespace {

using testing::IpcEndpoint;
using testing::kBound;
using testing::options_on;
using testing::RawBatsim;
using testing::ServeThread;
using testing::tcp_loopback_endpoint;

using namespace batfill::protocol;
using adapter::Verbosity;

using namespace std::chrono_literals;

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
  options.settings.policy = "easy";
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
                {JobCompleted{"w0!c", JobState::kSucceeded, 0, parse_machine_set("2-3")}}))),
            "");
  EXPECT_EQ(decisions(batsim.exchange(request(
                from_seconds(60),
                {JobCompleted{"w0!a", JobState::kSucceeded, 0, parse_machine_set("0-1")}}))),
            "EXECUTE_JOB w0!b 0-3; ");
  EXPECT_EQ(decisions(batsim.exchange(request(
                from_seconds(90),
                {JobCompleted{"w0!b", JobState::kSucceeded, 0, parse_machine_set("0-3")}}))),
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
// waiting for its whole --timeout (docs/protocol.md#peer-death-and-message-size).
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
