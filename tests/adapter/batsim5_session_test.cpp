// Batsim5Session request by request, as serve's loop drives it: Batsim 5's handshake (u32
// length + init string in, u32 flags + EDCHello out,
// docs/protocol.md#process-mode-and-its-handshake), a run to SimulationEnds, and the stop notices
// that end a session early.

#include "batfill/adapter/batsim5_session.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <vector>

#include "batfill/adapter/batsim4_session.hpp"

namespace batfill::adapter {
namespace {

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

// The replies to `requests`, until one is refused: its error then goes into `error`.
std::vector<std::string> replies_of(Session& session, const std::vector<std::string>& requests,
                                    std::string& error) {
  std::vector<std::string> replies;
  for (const std::string& request : requests) {
    try {
      replies.push_back(session.reply_to(request));
    } catch (const RequestError& e) {
      error = e.what();
      break;
    }
  }
  return replies;
}

std::uint32_t flags_of(const std::string& reply) {
  std::uint32_t flags = 0;
  std::memcpy(&flags, reply.data(), 4);
  return flags;
}

TEST(Batsim5Session, HandshakeThenARunToTheEnd) {
  std::ostringstream log;
  Batsim5Session session(Settings{}, Log(Verbosity::kQuiet, log));
  EXPECT_EQ(session.next_request(), "the init message");
  std::string error;
  const std::vector<std::string> replies = replies_of(
      session,
      {init_request(R"({"backfill":"conservative"})"), kBegins,
       message("0.0", "JobSubmittedEvent",
               R"({"job_id":"w0!1","job":{"resource_request":1,"walltime":10.0},)"
               R"("submission_time":0.0})"),
       message("5.0", "JobCompletedEvent", R"({"job_id":"w0!1","state":"COMPLETED_SUCCESSFULLY"})"),
       message("5.0", "SimulationEndsEvent", "{}")},
      error);
  EXPECT_EQ(error, "");
  ASSERT_EQ(replies.size(), 5u);
  EXPECT_EQ(flags_of(replies[0]), 0x2u);  // JSON
  EXPECT_EQ(replies[0].substr(4, 9), R"({"now":0.)");
  EXPECT_NE(replies[0].find("EDCHelloEvent"), std::string::npos);
  EXPECT_NE(replies[2].find(R"("job_id":"w0!1","allocation":{"host_allocation":"0")"),
            std::string::npos)
      << replies[2];
  EXPECT_EQ(replies[4], R"({"now":5.000000,"events":[]})");
  EXPECT_TRUE(session.finished());
  EXPECT_EQ(log.str(), "");
}

TEST(Batsim5Session, BadInitStringIsNamedAndTheNoticeCarriesTheFlags) {
  Batsim5Session session(Settings{}, Log(Verbosity::kQuiet));
  std::string error;
  replies_of(session, {init_request(R"({"colour":"red"})")}, error);
  EXPECT_NE(error.find("colour"), std::string::npos) << error;
  const std::string notice = session.stop_notice(error);
  EXPECT_EQ(flags_of(notice), 0x2u);  // the handshake's shape, so that Batsim parses the notice
  EXPECT_EQ(notice.substr(4).rfind(R"({"now":0.0,"events":[],"batfill error: )", 0), 0u);
  EXPECT_NE(notice.find("colour"), std::string::npos);
}

// The whole init string of the handshake is the input: text after an embedded NUL is refused,
// and a 5 MB init string is quoted in a short excerpt, in the error and in the stop notice.
TEST(Batsim5Session, InitStringIsReadWholeAndQuotedShort) {
  const std::string nul("{\"backfill\":\"none\"}\0{\"backfill\":\"bogus\"}", 40);
  for (const std::string& init : {nul, std::string(5'000'000, 'x')}) {
    Batsim5Session session(Settings{}, Log(Verbosity::kQuiet));
    std::string error;
    EXPECT_TRUE(replies_of(session, {init_request(init)}, error).empty());
    EXPECT_NE(error.find("init string is not JSON at byte "), std::string::npos)
        << error.substr(0, 1000);
    EXPECT_LT(error.size(), 500u) << error.substr(0, 1000);
    EXPECT_LT(session.stop_notice(error).size(), 700u);
  }
}

// A Batsim 4 speaks first with a JSON message, whose first 4 bytes are no length of the rest:
// it is told so in its own protocol, a NOTIFY it aborts on.
TEST(Batsim5Session, ABatsim4MessageIsNoHandshake) {
  Batsim5Session session(Settings{}, Log(Verbosity::kQuiet));
  std::string error;
  replies_of(session,
             {R"({"now":0.0,"events":[{"timestamp":0,"type":"SIMULATION_BEGINS","data":{}}]})"},
             error);
  EXPECT_EQ(error,
            "the init message is a Batsim 4 message: this is Batsim 4: use `batfill serve "
            "--protocol batsim4` (the default)");
  EXPECT_NE(session.stop_notice(error).find(R"("type":"NOTIFY","data":{"type":"batfill error: )"
                                            R"(the init message is a Batsim 4 message)"),
            std::string::npos)
      << session.stop_notice(error);
}

// Neither a handshake nor a Batsim 4 message: the lengths are named.
TEST(Batsim5Session, AnInitMessageOfTheWrongLengthIsNamed) {
  Batsim5Session session(Settings{}, Log(Verbosity::kQuiet));
  std::string error;
  replies_of(session, {std::string("\x09\0\0\0{}", 6)}, error);
  EXPECT_EQ(error,
            "the init message announces 9 bytes of init string but holds 2 (is "
            "Batsim 4 talking to --protocol batsim5?)");
}

TEST(Batsim5Session, BadRequestIsNamedByMessageAndEvent) {
  Batsim5Session session(Settings{}, Log(Verbosity::kQuiet));
  std::string error;
  replies_of(
      session,
      {init_request(""), kBegins, message("1.0", "JobCompletedEvent", R"({"job_id":"w0!4"})")},
      error);
  EXPECT_NE(error.find("message #1: event 0 (JobCompletedEvent): field 'job_id': job "
                       "'w0!4' was never submitted"),
            std::string::npos)
      << error;
  EXPECT_EQ(session.next_request(), "message #2");
  const std::string notice = session.stop_notice(error.substr(0, error.find('\n')));
  EXPECT_EQ(notice.rfind(R"({"now":0.0,"events":[],"batfill error: message #1: event 0 )"
                         R"((JobCompletedEvent))",
                         0),
            0u)
      << notice;
}

// Batsim 5's handshake sent to a Batsim 4 session is recognised as such (not as malformed
// JSON), and the notice has the handshake's shape, flags word first, for Batsim 5 to read it.
TEST(Batsim4Session, ABatsim5HandshakeIsNamed) {
  Batsim4Session session(Settings{}, Log(Verbosity::kQuiet));
  std::string error;
  replies_of(session, {init_request(R"({"format_json":true})")}, error);
  EXPECT_EQ(error,
            "message #0 is Batsim 5's init message: this is Batsim 5: use `batfill serve "
            "--protocol batsim5`");
  const std::string notice = session.stop_notice(error);
  EXPECT_EQ(flags_of(notice), 0x2u);
  EXPECT_EQ(notice.substr(4).rfind(R"({"now":0.0,"events":[],"batfill error: message #0 is )", 0),
            0u)
      << notice;
}

// A second Batsim's first request is refused in the protocol it speaks, whichever the session's.
TEST(Session, ARefusalSpeaksTheStrangersProtocol) {
  const std::string batsim4 = R"({"now":0,"events":[]})";
  const std::string batsim5 = init_request("{}");
  for (const Protocol protocol : {Protocol::kBatsim4, Protocol::kBatsim5}) {
    const std::unique_ptr<Session> session =
        make_session(protocol, Settings{}, Log(Verbosity::kQuiet));
    const std::string to4 = session->refusal(batsim4, "busy");
    EXPECT_EQ(to4, R"({"now":0.000000,"events":[{"timestamp":0.000000,"type":"NOTIFY",)"
                   R"("data":{"type":"batfill error: busy"}}]})");
    const std::string to5 = session->refusal(batsim5, "busy");
    EXPECT_EQ(flags_of(to5), 0x2u);
    EXPECT_EQ(to5.substr(4), R"({"now":0.0,"events":[],"batfill error: busy":0})");
  }
}

}  // namespace
}  // namespace batfill::adapter
