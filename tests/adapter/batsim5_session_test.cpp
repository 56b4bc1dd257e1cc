// serve_batsim5 over a scripted channel: Batsim 5's handshake (u32 length + init string in,
// u32 flags + EDCHello out, docs/protocol.md §8.3), a run to SimulationEnds, and each way a
// session ends early.

#include "batfill/adapter/batsim5_session.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <sstream>
#include <vector>

namespace batfill::adapter {
namespace {

class ScriptedChannel : public RequestChannel {
 public:
  std::deque<std::string> requests;  // then `after`
  Received after = Received::kTimeout;
  std::vector<std::string> replies;

  Received receive(std::string& request, std::string& problem) override {
    if (requests.empty()) {
      problem = "scripted failure";
      return after;
    }
    request = requests.front();
    requests.pop_front();
    return Received::kRequest;
  }
  bool send(std::string_view reply) override {
    replies.emplace_back(reply);
    return true;
  }
  std::string name() const override { return "scripted"; }
};

std::string init_request(const std::string& init) {
  const auto length = static_cast<std::uint32_t>(init.size());
  std::string request(4, '\0');
  std::memcpy(request.data(), &length, 4);
  return request + init;
}

std::string message(const std::string& now, const std::string& type, const std::string& body) {
  return R"({"now":)" + now + R"(,"events":[{"timestamp":)" + now + R"(,"event_type":")" + type +
         R"(","event":)" + body + "}]}";
}

const std::string kBegins =
    message("0.0", "SimulationBeginsEvent",
            R"({"computation_host_number":1,"computation_hosts":[{"id":0,"name":"n0"}]})");

Batsim5ServeSettings quiet() {
  Batsim5ServeSettings settings;
  settings.verbosity = Verbosity::kQuiet;
  return settings;
}

TEST(Batsim5Session, HandshakeThenARunToTheEnd) {
  ScriptedChannel channel;
  channel.requests = {
      init_request(R"({"backfill":"conservative"})"), kBegins,
      message("0.0", "JobSubmittedEvent",
              R"({"job_id":"w0!1","job":{"resource_request":1,"walltime":10.0},)"
              R"("submission_time":0.0})"),
      message("5.0", "JobCompletedEvent", R"({"job_id":"w0!1","state":"COMPLETED_SUCCESSFULLY"})"),
      message("5.0", "SimulationEndsEvent", "{}")};
  std::ostringstream errors;
  EXPECT_EQ(serve_batsim5(channel, quiet(), errors), SessionEnd::kDone) << errors.str();
  ASSERT_EQ(channel.replies.size(), 5u);
  std::uint32_t flags = 0;
  std::memcpy(&flags, channel.replies[0].data(), 4);
  EXPECT_EQ(flags, 0x2u);  // JSON
  EXPECT_EQ(channel.replies[0].substr(4, 9), R"({"now":0.)");
  EXPECT_NE(channel.replies[0].find("EDCHelloEvent"), std::string::npos);
  EXPECT_NE(channel.replies[2].find(R"("job_id":"w0!1","allocation":{"host_allocation":"0")"),
            std::string::npos)
      << channel.replies[2];
  EXPECT_EQ(channel.replies[4], R"({"now":5.000000,"events":[]})");
  EXPECT_EQ(errors.str(), "");
}

TEST(Batsim5Session, BadInitStringStopsBatsimNamingTheKey) {
  ScriptedChannel channel;
  channel.requests = {init_request(R"({"colour":"red"})")};
  std::ostringstream errors;
  EXPECT_EQ(serve_batsim5(channel, quiet(), errors), SessionEnd::kProtocolError);
  EXPECT_NE(errors.str().find("colour"), std::string::npos) << errors.str();
  ASSERT_EQ(channel.replies.size(), 1u);
  std::uint32_t flags = 0;
  std::memcpy(&flags, channel.replies[0].data(), 4);
  EXPECT_EQ(flags, 0x2u);  // the handshake's shape, so that Batsim parses the notice as JSON
  EXPECT_EQ(channel.replies[0].substr(4).rfind(R"({"now":0.0,"events":[],"batfill error: )", 0),
            0u);
  EXPECT_NE(channel.replies[0].find("colour"), std::string::npos);
}

// serve reads the whole init string of the handshake: text after an embedded NUL is refused,
// and a 5 MB init string is quoted in a short excerpt, in the log and in the stop notice.
TEST(Batsim5Session, InitStringIsReadWholeAndQuotedShort) {
  const std::string nul("{\"backfill\":\"none\"}\0{\"backfill\":\"bogus\"}", 40);
  for (const std::string& init : {nul, std::string(5'000'000, 'x')}) {
    ScriptedChannel channel;
    channel.requests = {init_request(init)};
    std::ostringstream errors;
    EXPECT_EQ(serve_batsim5(channel, quiet(), errors), SessionEnd::kProtocolError);
    EXPECT_NE(errors.str().find("init string is not JSON at byte "), std::string::npos)
        << errors.str().substr(0, 1000);
    EXPECT_LT(errors.str().size(), 500u) << errors.str().substr(0, 1000);
    ASSERT_EQ(channel.replies.size(), 1u);
    EXPECT_LT(channel.replies[0].size(), 700u);
  }
}

// A Batsim 4 speaks first with a JSON message, whose first 4 bytes are no length of the rest.
TEST(Batsim5Session, ABatsim4MessageIsNoHandshake) {
  ScriptedChannel channel;
  channel.requests = {R"({"now":0.0,"events":[]})"};
  std::ostringstream errors;
  EXPECT_EQ(serve_batsim5(channel, quiet(), errors), SessionEnd::kProtocolError);
  EXPECT_NE(errors.str().find("is Batsim 4 talking to --protocol batsim5?"), std::string::npos)
      << errors.str();
}

TEST(Batsim5Session, BadRequestStopsBatsimNamingMessageAndEvent) {
  ScriptedChannel channel;
  channel.requests = {init_request(""), kBegins,
                      message("1.0", "JobCompletedEvent", R"({"job_id":"w0!4"})")};
  std::ostringstream errors;
  EXPECT_EQ(serve_batsim5(channel, quiet(), errors), SessionEnd::kProtocolError);
  EXPECT_NE(errors.str().find("message #1: event 0 (JobCompletedEvent): field 'job_id': job "
                              "'w0!4' was never submitted"),
            std::string::npos)
      << errors.str();
  EXPECT_NE(channel.replies.back().find("batfill error: message #1: event 0 (JobCompletedEvent)"),
            std::string::npos);
}

TEST(Batsim5Session, TimeoutAndPeerLossEndTheSession) {
  for (const auto& [after, end, said] :
       {std::tuple{RequestChannel::Received::kTimeout, SessionEnd::kTimeout,
                   "timed out waiting for message #1 from Batsim"},
        std::tuple{RequestChannel::Received::kPeerLost, SessionEnd::kChannelError,
                   "closed the connection"},
        std::tuple{RequestChannel::Received::kError, SessionEnd::kChannelError,
                   "scripted failure"}}) {
    ScriptedChannel channel;
    channel.requests = {init_request("{}"), kBegins};
    channel.after = after;
    std::ostringstream errors;
    EXPECT_EQ(serve_batsim5(channel, quiet(), errors), end);
    EXPECT_NE(errors.str().find(said), std::string::npos) << errors.str();
    EXPECT_NE(errors.str().find("message #1"), std::string::npos) << errors.str();
  }
}

// No init message in time: the message reads as English ("no the init message" before).
TEST(Batsim5Session, TimeoutBeforeTheInitMessageSaysSo) {
  ScriptedChannel channel;
  channel.after = RequestChannel::Received::kTimeout;
  std::ostringstream errors;
  EXPECT_EQ(serve_batsim5(channel, quiet(), errors), SessionEnd::kTimeout);
  EXPECT_NE(errors.str().find("timed out waiting for the init message from Batsim on "),
            std::string::npos)
      << errors.str();
}

}  // namespace
}  // namespace batfill::adapter
