// The one parser of {"backfill", "order", "alloc"}, shared by --variant_options and Batsim's
// config.sched-config: every key is optional, every other key is an error.

#include "batfill/adapter/options_json.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace batfill::adapter {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_options_json(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(OptionsJson, ReadsAnySubsetOfTheKeys) {
  const SchedulingOverrides all =
      parse_options_json(R"({"backfill":"conservative","order":"lcfs","alloc":"contiguous"})");
  EXPECT_EQ(all.backfill, "conservative");
  EXPECT_EQ(all.order, "lcfs");
  EXPECT_EQ(all.alloc, "contiguous");
  const SchedulingOverrides none = parse_options_json("{}");
  EXPECT_FALSE(none.backfill || none.order || none.alloc);
}

TEST(OptionsJson, ReadsThePredictionKeys) {
  const SchedulingOverrides all = parse_options_json(
      R"({"predictor":"sgd","predictor_options":{"eta":5000,"lambda":4e9},"corrector":"none",)"
      R"("backfill_order":"sjbf"})");
  EXPECT_EQ(all.predictor, "sgd");
  EXPECT_EQ(all.predictor_options, (PredictorOptions{{"eta", "5000"}, {"lambda", "4000000000.0"}}));
  EXPECT_EQ(all.corrector, "none");
  EXPECT_EQ(corrector_setting("none"), "");
  EXPECT_EQ(all.backfill_order, "sjbf");
  EXPECT_NE(error_of(R"({"predictor":"oracle"})").find("unknown predictor 'oracle'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"corrector":"halving"})").find("unknown corrector 'halving'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"backfill_order":"lpt"})").find("unknown backfill order 'lpt'"),
            std::string::npos);
  EXPECT_EQ(error_of(R"({"batching":"per-second"})"),
            "unknown event batching 'per-second' (valid: instant, per-event)");
  EXPECT_THROW(parse_predictor_options("[1]"), std::invalid_argument);
}

TEST(OptionsJson, UnknownKeyNamesItAndTheValidOnes) {
  EXPECT_EQ(error_of(R"({"foo":1})"),
            "unknown key 'foo' (valid: backfill, order, alloc, predictor, "
            "predictor_options, corrector, backfill_order, queues, batching)");
}

TEST(OptionsJson, RefusesWhatIsNotAnObjectOfKnownNames) {
  EXPECT_NE(error_of("fast please").find("must be a JSON object of batfill options"),
            std::string::npos);
  EXPECT_EQ(error_of(R"({"order":3})"), "'order' must be a string");
  EXPECT_NE(error_of(R"({"backfill":"bogus"})").find("unknown backfilling policy 'bogus'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"alloc":"random"})").find("'random'"), std::string::npos);
}

}  // namespace
}  // namespace batfill::adapter
