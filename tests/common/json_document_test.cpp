// parse_json: numbers read exactly. The expected doubles come from the C library's strtod,
// which is correctly rounded, independently of the conversion under test; the texts include
// numbers on which RapidJSON's own default parser lands one ulp away
// (docs/protocol.md#what-a-request-must-satisfy).

#include "batfill/common/json_document.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

namespace batfill {
namespace {

rapidjson::Document parsed_array(const std::string& number) {
  rapidjson::Document document;
  const rapidjson::ParseResult result = parse_json(document, "[" + number + "]");
  EXPECT_FALSE(result.IsError()) << number;
  return document;
}

TEST(JsonDocument, DoublesAreTheNearestToTheirText) {
  for (const char* text : {"1.0e77", "9.3041e197", "1.76215e34", "2.6397e-189", "2.8587971e222",
                           "6.0197320e-51", "0.1", "2.0000005", "1.7976931348623157e308",
                           "4.9e-324", "-123.456e-7", "1E+2", "0.000000000000000000001e9"}) {
    const rapidjson::Document document = parsed_array(text);
    ASSERT_TRUE(document[0].IsDouble()) << text;
    EXPECT_EQ(document[0].GetDouble(), std::strtod(text, nullptr)) << text;
  }
}

TEST(JsonDocument, IntegersStayIntegersWhileTheyFit64Bits) {
  EXPECT_EQ(parsed_array("18446744073709551615")[0].GetUint64(),
            std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(parsed_array("-9223372036854775808")[0].GetInt64(),
            std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(parsed_array("-0")[0].GetInt(), 0);
  const rapidjson::Document beyond = parsed_array("18446744073709551616");
  ASSERT_TRUE(beyond[0].IsDouble());
  EXPECT_EQ(beyond[0].GetDouble(), 18446744073709551616.0);
}

TEST(JsonDocument, UnderflowIsSignedZeroAndOverflowAnError) {
  EXPECT_EQ(parsed_array("1e-400")[0].GetDouble(), 0.0);
  EXPECT_TRUE(std::signbit(parsed_array("-1e-400")[0].GetDouble()));
  EXPECT_EQ(parsed_array("1e-99999999999999999999999")[0].GetDouble(), 0.0);
  for (const char* text : {"[1e400]", "[-1.8e308]", "[1e99999999999999999999999]"}) {
    rapidjson::Document document;
    EXPECT_EQ(parse_json(document, text).Code(), rapidjson::kParseErrorNumberTooBig) << text;
  }
}

TEST(JsonDocument, ReportsWhereTheTextIsNotJson) {
  rapidjson::Document document;
  const rapidjson::ParseResult result = parse_json(document, R"({"a": [1, 2})");
  EXPECT_EQ(result.Code(), rapidjson::kParseErrorArrayMissCommaOrSquareBracket);
  EXPECT_EQ(result.Offset(), 11u);
  EXPECT_TRUE(parse_json(document, std::string("\"a\xff\"")).IsError());  // not UTF-8
}

// The whole text is the input: RapidJSON would stop at a NUL byte and take what follows for the
// end of the text.
TEST(JsonDocument, TextAfterANulByteIsAnError) {
  rapidjson::Document document;
  const std::string text("{\"backfill\":\"none\"}\0{\"backfill\":\"bogus\"}", 40);
  const rapidjson::ParseResult result = parse_json(document, text);
  ASSERT_TRUE(result.IsError());
  EXPECT_EQ(result.Offset(), 19u);
  EXPECT_EQ(json_error_text(result, text),
            "not JSON at byte 19 (a NUL byte, and the text goes on after it): "
            "'{\"backfill\":\"none\"}\\x00{\"backfill\":\"bogus\"}'");
}

// An error quotes a short excerpt around the position, never a text of megabytes whole.
TEST(JsonDocument, ErrorsQuoteAShortExcerpt) {
  rapidjson::Document document;
  const std::string text = "{\"a\":\"" + std::string(5'000'000, 'x') + "\" 1}";
  const rapidjson::ParseResult result = parse_json(document, text);
  ASSERT_TRUE(result.IsError());
  const std::string what = json_error_text(result, text);
  EXPECT_LT(what.size(), 200u) << what;
  EXPECT_NE(what.find("(byte 5000008 of 5000010)"), std::string::npos) << what;
}

}  // namespace
}  // namespace batfill
