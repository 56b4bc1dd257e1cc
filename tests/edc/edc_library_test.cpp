// libbatfill_edc.so through dlopen, as Batsim 5 loads it: the C API of Batsim's EDC header
// (batsim_edc_init, batsim_edc_take_decisions, batsim_edc_deinit), bad init strings and bad
// messages. Messages are batprotocol JSON written from the schema's names.

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <sstream>
#include <string>

namespace {

using Init = std::uint8_t (*)(const std::uint8_t*, std::uint32_t, std::uint32_t*, std::uint8_t**,
                              std::uint32_t*);
using TakeDecisions = std::uint8_t (*)(const std::uint8_t*, std::uint32_t, std::uint8_t**,
                                       std::uint32_t*);
using Deinit = std::uint8_t (*)();

class EdcLibrary : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    handle_ = dlopen(BATFILL_EDC_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
    init_ = reinterpret_cast<Init>(dlsym(handle_, "batsim_edc_init"));
    take_ = reinterpret_cast<TakeDecisions>(dlsym(handle_, "batsim_edc_take_decisions"));
    deinit_ = reinterpret_cast<Deinit>(dlsym(handle_, "batsim_edc_deinit"));
  }
  static void TearDownTestSuite() { dlclose(handle_); }
  void TearDown() override { deinit_(); }

  // init's return code; the reply text in `reply`.
  int init(const std::string& text) {
    std::uint32_t flags = 0;
    std::uint8_t* data = nullptr;
    std::uint32_t size = 0;
    const int code = init_(reinterpret_cast<const std::uint8_t*>(text.data()),
                           static_cast<std::uint32_t>(text.size()), &flags, &data, &size);
    if (code == 0) {
      flags_ = flags;
      reply = std::string(reinterpret_cast<const char*>(data), size);
    }
    return code;
  }

  // Sent as Batsim sends it: a C string, its size counting the NUL.
  int take(const std::string& message) {
    std::uint8_t* data = nullptr;
    std::uint32_t size = 0;
    const int code = take_(reinterpret_cast<const std::uint8_t*>(message.c_str()),
                           static_cast<std::uint32_t>(message.size() + 1), &data, &size);
    if (code == 0) reply = std::string(reinterpret_cast<const char*>(data), size);
    return code;
  }

  static void* handle_;
  static Init init_;
  static TakeDecisions take_;
  static Deinit deinit_;
  std::uint32_t flags_ = 0;
  std::string reply;
};

void* EdcLibrary::handle_ = nullptr;
Init EdcLibrary::init_ = nullptr;
TakeDecisions EdcLibrary::take_ = nullptr;
Deinit EdcLibrary::deinit_ = nullptr;

std::string message(const std::string& now, const std::string& events) {
  return R"({"now":)" + now + R"(,"events":[)" + events + "]}";
}

std::string event(const std::string& now, const std::string& type, const std::string& body) {
  return R"({"timestamp":)" + now + R"(,"event_type":")" + type + R"(","event":)" + body + "}";
}

const std::string kBegins =
    event("0.0", "SimulationBeginsEvent",
          R"({"host_number":3,"computation_host_number":2,"computation_hosts":[
       {"id":0,"name":"n0","state":"IDLE"},{"id":1,"name":"n1","state":"IDLE"}],
       "storage_host_number":1,"storage_hosts":[{"id":2,"name":"disk"}],
       "batsim_execution_context_json":"{}"})");

std::string submitted(const std::string& id, int hosts, const std::string& walltime) {
  return event("0.0", "JobSubmittedEvent",
               R"({"job_id":")" + id + R"(","job":{"resource_request":)" + std::to_string(hosts) +
                   walltime + R"(,"rigid":true,"profile_id":"p"},"submission_time":0.0})");
}

// Only Batsim's three functions are exported: batfill's own symbols (and those of the libraries
// linked in statically) stay private, so they cannot clash with Batsim's or another EDC's.
TEST(EdcLibraryExports, OnlyTheThreeFunctionsOfTheEdcApi) {
  FILE* nm = popen("nm -D --defined-only " BATFILL_EDC_LIBRARY, "r");
  ASSERT_NE(nm, nullptr);
  std::set<std::string> exported;
  char line[4096];
  while (std::fgets(line, sizeof line, nm) != nullptr) {
    std::istringstream fields(line);
    std::string address, kind, name;
    if (fields >> address >> kind >> name) exported.insert(name);
  }
  ASSERT_EQ(pclose(nm), 0) << "nm failed";
  EXPECT_EQ(exported, (std::set<std::string>{"batsim_edc_deinit", "batsim_edc_init",
                                             "batsim_edc_take_decisions"}));
}

TEST_F(EdcLibrary, InitRepliesAnEdcHelloInJson) {
  for (const std::string text : {"", "{}", R"({"format_json": true})",
                                 R"({"backfill":"conservative","predictor":"tsafrir"})"}) {
    ASSERT_EQ(init(text), 0) << text;
    EXPECT_EQ(flags_, 0x2u);  // BATSIM_EDC_FORMAT_JSON
    EXPECT_NE(reply.find(R"("event_type":"EDCHelloEvent")"), std::string::npos) << reply;
    EXPECT_NE(reply.find(R"("decision_component_name":"batfill")"), std::string::npos);
    EXPECT_EQ(reply.back(), '\0');  // a C string, its size counting the NUL
  }
}

TEST_F(EdcLibrary, ClairvoyantAsksForProfilesOnSubmission) {
  ASSERT_EQ(init(R"({"predictor":"clairvoyant"})"), 0);
  EXPECT_NE(reply.find(R"("forward_profiles_on_job_submission":true)"), std::string::npos);
  ASSERT_EQ(init("{}"), 0);
  EXPECT_NE(reply.find(R"("forward_profiles_on_job_submission":false)"), std::string::npos);
}

TEST_F(EdcLibrary, BadInitStringsFailWithOneLineNamingTheKey) {
  const std::pair<std::string, std::string> cases[] = {
      {"not json", "init string is not JSON at byte 1 (Invalid value.): 'not json'"},
      {"[1]", "init string is not a JSON object"},
      {R"({"colour":"red"})", "colour"},
      {R"({"backfill":"nope"})", "nope"},
      {R"({"format_json": false})", "format_json"},
      // Each key valid, the two together not: refused at init, not at SimulationBegins.
      {R"({"backfill":"easy","backfill_order":"sjbf"})", "init string: backfill order 'sjbf'"},
  };
  for (const auto& [text, named] : cases) {
    ::testing::internal::CaptureStderr();
    EXPECT_NE(init(text), 0) << text;
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find(named), std::string::npos) << text << " -> " << err;
    EXPECT_EQ(err.find('\n'), err.size() - 1) << "one line: " << err;
  }
}

// The whole buffer Batsim gives is the init string: text after an embedded NUL is not dropped
// (only trailing NULs are, as batprotocol's sizes may count the C string's).
TEST_F(EdcLibrary, TextAfterAnEmbeddedNulIsRefused) {
  const std::string text("{\"backfill\":\"none\"}\0{\"backfill\":\"bogus\"}", 40);
  ::testing::internal::CaptureStderr();
  EXPECT_NE(init(text), 0);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("init string is not JSON at byte 19 (a NUL byte, and the text goes on after "
                     "it): '{\"backfill\":\"none\"}\\x00{\"backfill\":\"bogus\"}'"),
            std::string::npos)
      << err;
  EXPECT_EQ(init(std::string("{\"backfill\":\"none\"}\0", 20)), 0);
}

// A 5 MB init string is quoted in a short excerpt with its position, never whole.
TEST_F(EdcLibrary, HugeInitStringsAreQuotedShort) {
  for (const std::string& text :
       {std::string(5'000'000, 'x'), "{\"backfill\":\"" + std::string(5'000'000, 'x') + "\"}"}) {
    ::testing::internal::CaptureStderr();
    EXPECT_NE(init(text), 0);
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_LT(err.size(), 500u) << err.substr(0, 1000);
    EXPECT_NE(err.find("of 5000"), std::string::npos) << err.substr(0, 1000);
  }
}

TEST_F(EdcLibrary, SchedulesAJobOnComputationHostsOnly) {
  ASSERT_EQ(init("{}"), 0);
  ASSERT_EQ(take(message("0.0", kBegins + "," + submitted("w0!1", 2, R"(,"walltime":100.0)"))), 0);
  EXPECT_NE(reply.find(R"("job_id":"w0!1","allocation":{"host_allocation":"0-1")"),
            std::string::npos)
      << reply;
  ASSERT_EQ(take(message("50.0", event("50.0", "JobCompletedEvent",
                                       R"({"job_id":"w0!1","state":"COMPLETED_SUCCESSFULLY",)"
                                       R"("return_code":0})"))),
            0);
  EXPECT_EQ(reply, std::string(R"({"now":50.000000,"events":[]})") + '\0');
  ASSERT_EQ(take(message("50.0", event("50.0", "SimulationEndsEvent", "{}"))), 0);
}

// A job larger than the 2 compute hosts is rejected (docs/semantics.md#rejection-at-submission):
// the storage host does not count. A job without a walltime runs
// (docs/semantics.md#queues---queues: no run limit).
TEST_F(EdcLibrary, RejectsOnlyJobsItCanNeverRun) {
  ASSERT_EQ(init("{}"), 0);
  ASSERT_EQ(take(message("0.0", kBegins + "," + submitted("w0!1", 3, R"(,"walltime":10.0)") + "," +
                                    submitted("w0!2", 1, ""))),
            0);
  EXPECT_NE(reply.find(R"("event_type":"RejectJobEvent","event":{"job_id":"w0!1"})"),
            std::string::npos)
      << reply;
  EXPECT_NE(reply.find(R"("event_type":"ExecuteJobEvent","event":{"job_id":"w0!2")"),
            std::string::npos)
      << reply;
}

TEST_F(EdcLibrary, BadMessagesFailWithOneLineNamingTheEvent) {
  const std::pair<std::string, std::string> cases[] = {
      {"{", "malformed JSON"},
      {message("0.0", event("0.0", "JobCompletedEvent", R"({"job_id":"w0!9"})")),
       "message #0: event 0 (JobCompletedEvent): received before SIMULATION_BEGINS"},
      {message("0.0", kBegins + "," + event("0.0", "ProbeDataEmittedEvent", R"({"probe_id":"p"})") +
                          "," + submitted("w0!1", 0, "") + "," + submitted("w0!1", 1, "")),
       "message #0: event 3 (JobSubmittedEvent): field 'job_id': job 'w0!1' submitted twice"},
      {message("0.0", event("0.0", "RegisterProfileEvent", "{}")),
       "event 0 (RegisterProfileEvent)"},
  };
  for (const auto& [text, named] : cases) {
    ASSERT_EQ(init("{}"), 0);
    ::testing::internal::CaptureStderr();
    EXPECT_NE(take(text), 0) << text;
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find(named), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), err.size() - 1) << "one line: " << err;
  }
}

TEST_F(EdcLibrary, CompletionOfAnUnknownJobFails) {
  ASSERT_EQ(init("{}"), 0);
  ASSERT_EQ(take(message("0.0", kBegins)), 0);
  ::testing::internal::CaptureStderr();
  EXPECT_NE(take(message("1.0", event("1.0", "JobCompletedEvent",
                                      R"({"job_id":"w0!7","state":"COMPLETED_SUCCESSFULLY"})"))),
            0);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("job 'w0!7' was never submitted"),
            std::string::npos);
}

TEST_F(EdcLibrary, TakeDecisionsBeforeInitFails) {
  ::testing::internal::CaptureStderr();
  EXPECT_NE(take(message("0.0", kBegins)), 0);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("before a successful init"),
            std::string::npos);
}

}  // namespace
