// `batfill simulate --scheduler-library`: the stand-in plays Batsim 5 for an EDC library. With
// batfill's own libbatfill_edc.so every message crosses batprotocol JSON, so the run must write
// the same _jobs.csv, byte for byte, as batfill in-process with the same settings
// (docs/protocol.md#the-stand-in-driving-an-edc-library).

#include <gtest/gtest.h>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::read_file;
using cli_testing::run;

struct LibraryCase {
  const char* workload;
  const char* settings;
};

class SchedulerLibrary : public ::testing::TestWithParam<LibraryCase> {};

TEST_P(SchedulerLibrary, WritesTheSameScheduleAsInProcess) {
  const std::string dir = cli_testing::output_dir();
  const std::string workload = std::string(BATFILL_SOURCE_DIR "/workloads/") + GetParam().workload;
  const std::string settings = std::string("'") + GetParam().settings + "'";
  const auto in_process = run("simulate " + workload + " --no-progress --sched-cfg " + settings +
                              " --output " + dir + "/in");
  ASSERT_EQ(in_process.exit_code, 0) << in_process.output;
  const auto library =
      run("simulate " + workload + " --no-progress --scheduler-library " + BATFILL_EDC_LIBRARY +
          " --scheduler-init " + settings + " --output " + dir + "/lib");
  ASSERT_EQ(library.exit_code, 0) << library.output;
  EXPECT_NE(library.output.find("Batsim 5 EDC batfill"), std::string::npos) << library.output;
  EXPECT_EQ(read_file(dir + "/lib_jobs.csv"), read_file(dir + "/in_jobs.csv"));
}

// Policies, a corrector (CallMeLater in milliseconds), per-event batching and queues.
INSTANTIATE_TEST_SUITE_P(
    Settings, SchedulerLibrary,
    ::testing::Values(
        LibraryCase{"lublin_256.swf", R"({"backfill":"conservative"})"},
        LibraryCase{"lublin_256.swf", R"({"backfill":"easy","order":"asc_walltime"})"},
        LibraryCase{"lublin_256.swf",
                    R"({"backfill":"easy-classic","predictor":"tsafrir","corrector":"tsafrir",)"
                    R"("backfill_order":"sjbf"})"},
        LibraryCase{
            "lublin_256.swf",
            R"({"backfill":"conservative","predictor":"clairvoyant","batching":"per-event"})"},
        LibraryCase{"tiny_batsim.json", R"({"backfill":"easy"})"}));

TEST(SchedulerLibraryErrors, NamesWhatIsWrong) {
  const std::string workload = BATFILL_SOURCE_DIR "/workloads/tiny.swf";
  const auto missing =
      run("simulate " + workload + " --no-progress --scheduler-library /nonexistent.so");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.output.find("cannot load EDC library '/nonexistent.so'"), std::string::npos)
      << missing.output;
  const auto bad_init = run("simulate " + workload + " --no-progress --scheduler-library " +
                            BATFILL_EDC_LIBRARY + R"( --scheduler-init '{"colour":1}')");
  EXPECT_NE(bad_init.exit_code, 0);
  EXPECT_NE(bad_init.output.find("colour"), std::string::npos) << bad_init.output;
  EXPECT_NE(bad_init.output.find("batsim_edc_init returned 1"), std::string::npos)
      << bad_init.output;
  const auto sched_cfg = run("simulate " + workload + " --no-progress --scheduler-library " +
                             BATFILL_EDC_LIBRARY + R"( --sched-cfg '{}')");
  EXPECT_NE(sched_cfg.exit_code, 0);
  EXPECT_NE(sched_cfg.output.find("--sched-cfg means nothing with --scheduler-library: it is "
                                  "Batsim 4's"),
            std::string::npos)
      << sched_cfg.output;
}

}  // namespace
}  // namespace batfill
