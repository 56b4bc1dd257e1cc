// Hostile messages and values at the edges of batfill's ranges: each must give a clear
// ProtocolError (docs/protocol.md#what-a-request-must-satisfy), never a crash, a truncated reply or
// a wrapped time.

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "../support/parse_error.hpp"
#include "batfill/common/json_depth.hpp"
#include "batfill/common/time.hpp"
#include "batfill/protocol/codec.hpp"

namespace batfill::protocol {
namespace {

std::string error_of(const std::string& json) { return batfill::testing::parse_error_of(json); }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(HostileMessage, ArraysNested200000LevelsAreAClearError) {
  const std::string json =
      R"({"now": 0, "events": )" + std::string(200000, '[') + std::string(200000, ']') + "}";
  // "events" opens level 2 at offset 21; level 257 opens 255 brackets later.
  EXPECT_EQ(error_of(json), "JSON nested deeper than 256 levels at offset 276");
}

TEST(HostileMessage, NestingScanIgnoresBracketsInsideStrings) {
  const std::string deep_text = "\"" + std::string(1000, '[') + "\\\"\"";
  EXPECT_FALSE(find_excess_json_nesting("{\"a\": " + deep_text + "}"));
  EXPECT_EQ(find_excess_json_nesting(std::string(kMaxJsonDepth, '[')), std::nullopt);
  EXPECT_EQ(find_excess_json_nesting(std::string(kMaxJsonDepth + 1, '[')),
            std::optional<std::size_t>(kMaxJsonDepth));
}

Message rejection_of(const std::string& id) {
  Message message;
  message.now = from_seconds(1);
  message.events.push_back(Event{from_seconds(1), RejectJob{id}});
  return message;
}

TEST(HostileMessage, IdWithNulIsKeptWholeAndEscapedInReplies) {
  const std::string json =
      R"({"now": 1, "events": [{"timestamp": 1, "type": "JOB_KILLED", "data": {"job_ids": ["w0!a\u0000b"]}}]})";
  const Message parsed = parse_message(json);
  const auto& killed = std::get<JobKilled>(parsed.events.at(0).data);
  ASSERT_EQ(killed.job_ids.size(), 1u);
  EXPECT_EQ(killed.job_ids[0], std::string("w0!a\0b", 6));

  const std::string reply = write_message(rejection_of(std::string("w0!a\0b", 6)));
  EXPECT_TRUE(contains(reply, R"("job_id":"w0!a\u0000b")")) << reply;
  EXPECT_EQ(reply.back(), '}');  // nothing cut at the NUL
  rapidjson::Document document;
  document.Parse(reply.c_str(), reply.size());
  EXPECT_FALSE(document.HasParseError());
}

TEST(HostileMessage, InvalidUtf8IsRefusedOnReadAndOnWrite) {
  const std::string json =
      "{\"now\": 1, \"events\": [{\"timestamp\": 1, \"type\": \"JOB_KILLED\", "
      "\"data\": {\"job_ids\": [\"w0!\xc3\x28\"]}}]}";
  EXPECT_TRUE(contains(error_of(json), "Invalid encoding in string")) << error_of(json);
  EXPECT_THROW(write_message(rejection_of("w0!\xc3\x28")), std::invalid_argument);
}

TEST(HostileMessage, TimesBeyondTheRangeAreAnErrorNamingTheField) {
  // Beyond 2^125 - 1 µs, about 4.25e31 s (docs/semantics.md#time); the double 5e31 is
  // 50000000000000002683081102196736 exactly.
  EXPECT_EQ(error_of(R"({"now": 5e31, "events": []})"),
            "field 'now': time value out of range: 50000000000000002683081102196736.000000 s "
            "(batfill's times lie within ±4.25e31 s)");
  EXPECT_TRUE(contains(error_of(R"({"now": 1e308, "events": []})"), "out of range"));
  EXPECT_TRUE(contains(error_of(R"({"now": 0, "events": [{"timestamp": -1e32, "type": "NOTIFY",
      "data": {"type": "x"}}]})"),
                       "field 'timestamp': time value out of range"));
  // Batsim's test_long_workload.json submits at up to 1e17 s, all within the range.
  EXPECT_EQ(format_seconds(parse_message(R"({"now": 1e17, "events": []})").now),
            "100000000000000000.000000");
}

TEST(HostileMessage, MachineCountBeyondTheLimitIsAnError) {
  const std::string json =
      R"({"now": 0, "events": [{"timestamp": 0, "type": "SIMULATION_BEGINS", "data": {"nb_compute_resources": 2147483647, "config": {}}}]})";
  EXPECT_TRUE(contains(error_of(json),
                       "field 'nb_compute_resources' 2147483647 is more than "
                       "batfill's limit of 1000000 machines"))
      << error_of(json);
}

TEST(HostileMessage, StopNoticeIsANotifyOfAnUnknownTypeInPlainAscii) {
  const std::string notice = write_stop_notice("message #3: 'now' \xff went\nback");
  EXPECT_EQ(notice,
            R"({"now":0.000000,"events":[{"timestamp":0.000000,"type":"NOTIFY","data":{"type":)"
            R"("batfill error: message #3: 'now'   went back"}}]})");
}

// Found by fuzz_codec: a resource without a role got "role" written first, then the other
// properties; read back, the map sorted them, so a second round trip wrote other text.
TEST(HostileMessage, RoundTripOfResourcePropertiesIsAFixedPoint) {
  const std::string json =
      R"({"now":0,"events":[{"timestamp":0,"type":"SIMULATION_BEGINS","data":{"nb_compute_resources":1,)"
      R"("config":{},"compute_resources":[{"id":0,"name":"a","state":"idle","properties":{"pole":"x"}}]}}]})";
  const std::string once = write_message(parse_message(json));
  EXPECT_TRUE(contains(once, R"("properties":{"pole":"x","role":""})")) << once;
  EXPECT_EQ(write_message(parse_message(once)), once);
}

// Found by fuzz_codec: RapidJSON 1.1.0's full-precision number parser shifted by exponents
// beyond 63 bits on zeros written with many digits and a large exponent; the default parser
// refuses the exponent with a clear error.
TEST(HostileMessage, ZeroWithManyDigitsAndAHugeExponentIsAClearError) {
  EXPECT_EQ(error_of(R"({"now": 0.000000000000000000000000000000e1792900863, "events": []})"),
            "malformed JSON at offset 8: Number too big to be stored in double.");
  EXPECT_EQ(parse_message(R"({"now": 0.000000000000000000000000000000e5, "events": []})").now, 0);
  EXPECT_TRUE(contains(error_of("0e55l  00+1"), "malformed JSON at offset"))
      << error_of("0e55l  00+1");
}

}  // namespace
}  // namespace batfill::protocol
