// `simulate --load-factor` and `--shake` end to end
// (docs/semantics.md#load-scaling-and-input-shaking---load-factor---shake): exact submit times in
// _jobs.csv, reproducible shaking, the settings recorded in _schedule.csv, and untouched outputs
// without them.

#include <fstream>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::read_csv;
using cli_testing::run;

// Four jobs of 1 node on 4 nodes, submitted at 10, 20, 40 and 70 s: none ever waits.
const char* const kTrace =
    "; MaxProcs: 4\n"
    "1 10 -1 5 1 -1 -1 1 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
    "2 20 -1 5 1 -1 -1 1 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
    "3 40 -1 5 1 -1 -1 1 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
    "4 70 -1 5 1 -1 -1 1 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n";

std::map<std::string, std::string> submit_times(const std::string& jobs_csv) {
  std::map<std::string, std::string> submits;
  for (const auto& row : read_csv(jobs_csv)) submits[row.at("job_id")] = row.at("submission_time");
  return submits;
}

// Offsets from the first submission (10 s) divided by 2: 10, 15, 25 and 40 s.
TEST(WorkloadTransform, LoadFactorGivesExactSubmitTimes) {
  const std::string dir = cli_testing::output_dir();
  std::ofstream(dir + "/w.swf") << kTrace;
  const auto result =
      run("simulate " + dir + "/w.swf --no-progress --load-factor 2 --output " + dir + "/out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(submit_times(dir + "/out_jobs.csv"),
            (std::map<std::string, std::string>{
                {"1", "10.000000"}, {"2", "15.000000"}, {"3", "25.000000"}, {"4", "40.000000"}}));
  EXPECT_EQ(read_csv(dir + "/out_schedule.csv").front().at("load_factor"), "2");
  EXPECT_NE(result.output.find("load factor 2"), std::string::npos) << result.output;
}

TEST(WorkloadTransform, SameSeedSameScheduleAndSeedRecorded) {
  const std::string dir = cli_testing::output_dir();
  const std::string common = "simulate " + cli_testing::source_path("workloads/lublin_256.swf") +
                             " --no-progress --backfill easy --shake ";
  ASSERT_EQ(run(common + "7 --output " + dir + "/a").exit_code, 0);
  ASSERT_EQ(run(common + "7 --output " + dir + "/b").exit_code, 0);
  ASSERT_EQ(run(common + "8:10 --output " + dir + "/c").exit_code, 0);
  const std::string a = cli_testing::read_file(dir + "/a_jobs.csv");
  EXPECT_EQ(a, cli_testing::read_file(dir + "/b_jobs.csv"));
  EXPECT_NE(a, cli_testing::read_file(dir + "/c_jobs.csv"));
  EXPECT_EQ(read_csv(dir + "/a_schedule.csv").front().at("shake"), "7:5");
  EXPECT_EQ(read_csv(dir + "/c_schedule.csv").front().at("shake"), "8:10");
}

TEST(WorkloadTransform, FactorOneWithoutShakeChangesNoOutput) {
  const std::string dir = cli_testing::output_dir();
  const std::string common = "simulate " + cli_testing::source_path("workloads/lublin_256.swf") +
                             " --no-progress --backfill conservative";
  ASSERT_EQ(run(common + " --output " + dir + "/plain").exit_code, 0);
  ASSERT_EQ(run(common + " --load-factor 1 --output " + dir + "/one").exit_code, 0);
  EXPECT_EQ(cli_testing::read_file(dir + "/plain_jobs.csv"),
            cli_testing::read_file(dir + "/one_jobs.csv"));
  EXPECT_EQ(read_csv(dir + "/one_schedule.csv").front().count("load_factor"), 0u);
}

TEST(WorkloadTransform, BadValuesAreClearErrors) {
  const std::string dir = cli_testing::output_dir();
  const std::string common =
      "simulate " + cli_testing::source_path("workloads/tiny.swf") + " --output " + dir + "/x ";
  const auto zero = run(common + "--load-factor 0");
  EXPECT_NE(zero.exit_code, 0);
  EXPECT_NE(zero.output.find("load factor must be"), std::string::npos) << zero.output;
  const auto shake = run(common + "--shake abc");
  EXPECT_NE(shake.exit_code, 0);
  EXPECT_NE(shake.output.find("--shake 'abc'"), std::string::npos) << shake.output;
}

}  // namespace
}  // namespace batfill
