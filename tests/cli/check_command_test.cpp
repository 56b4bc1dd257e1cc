// `batfill check` end to end (docs/semantics.md#checking-a-schedule-batfill-check): a schedule
// batfill wrote passes; the same schedule corrupted by hand fails, each violation named with its
// jobs and time.

#include <fstream>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::run;

// Under `none` all four jobs run: 1 on 0-1 during [0, 60), 2 on 0-3 from 60, then 3 and 4 side
// by side on machines 0 and 1 from 61.000002.
std::string simulate_tiny(const std::string& dir) {
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR
          "/workloads/tiny_batsim.json --backfill none --no-progress --output " +
          dir + "/out");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return dir + "/out_jobs.csv";
}

TEST(CheckCommand, AcceptsWhatSimulateWrote) {
  const std::string dir = cli_testing::output_dir();
  const std::string jobs = simulate_tiny(dir);
  const cli_testing::CommandResult check = run(
      "check " + jobs + " --nodes 4 --workload " BATFILL_SOURCE_DIR "/workloads/tiny_batsim.json");
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_EQ(check.output, jobs + ": 4 jobs, 0 violations\n");
}

// That schedule with job 1's row dropped and every allocation replaced by machine 0: job 2 has
// the wrong size, jobs 3 and 4 overlap on machine 0, job 1 is missing; exit 1.
TEST(CheckCommand, ReportsAHandCorruptedSchedule) {
  const std::string dir = cli_testing::output_dir();
  const std::vector<std::string> lines = cli_testing::read_lines(simulate_tiny(dir));
  ASSERT_EQ(lines.size(), 5u);
  std::ofstream corrupt(dir + "/corrupt_jobs.csv");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i == 1) continue;  // job 1
    std::vector<std::string> fields = cli_testing::split_csv_line(lines[i]);
    if (i > 0) fields[14] = "0";
    for (std::size_t f = 0; f < fields.size(); ++f) corrupt << (f ? "," : "") << fields[f];
    corrupt << '\n';
  }
  corrupt.close();
  const cli_testing::CommandResult check =
      run("check " + dir +
          "/corrupt_jobs.csv --workload " BATFILL_SOURCE_DIR "/workloads/tiny_batsim.json");
  EXPECT_EQ(check.exit_code, 1) << check.output;
  const std::string file = dir + "/corrupt_jobs.csv: ";
  EXPECT_EQ(check.output,
            file +
                "job '2' (line 2) at 60.000000 s: allocation '0' has 1 machine, it requested 4\n" +
                file +
                "machine 0 runs job '3' (line 3) and job '4' (line 4) at once at 61.000002 s "
                "(the first ends at 121.000002 s)\n" +
                file + "workload job '1' is missing\n" + file + "3 jobs, 3 violations\n");
}

TEST(CheckCommand, UnreadableFileIsNamed) {
  const cli_testing::CommandResult check = run("check /nonexistent/x_jobs.csv");
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_NE(check.output.find("cannot read '/nonexistent/x_jobs.csv'"), std::string::npos)
      << check.output;
}

// --timeout must be finite, positive and bounded; --nodes within the machine limit.
TEST(BadOptions, TimeoutsOutsideTheRangeAreRefused) {
  for (const std::string value : {"-1", "nan", "inf", "1e300", "0"}) {
    const cli_testing::CommandResult serve = run("serve --timeout=" + value);
    EXPECT_NE(serve.exit_code, 0) << value;
    EXPECT_NE(serve.output.find("--timeout"), std::string::npos) << value << serve.output;
    const cli_testing::CommandResult simulate =
        run("simulate " BATFILL_SOURCE_DIR
            "/workloads/tiny.swf --scheduler ipc:///tmp/none --timeout=" +
            value);
    EXPECT_NE(simulate.exit_code, 0) << value;
    EXPECT_NE(simulate.output.find("--timeout"), std::string::npos) << value << simulate.output;
  }
}

TEST(BadOptions, NodesBeyondTheMachineLimitAreRefused) {
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR "/workloads/tiny.swf --nodes 2147483647 --no-progress");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("--nodes 2147483647: must be from 1 to 1000000"), std::string::npos)
      << result.output;
}

// Three jobs of 2^104 s queued on one node: the third would end at 3 * 2^104 s, about 6.1e31 s,
// beyond kMaxTime (2^125 - 1 µs, about 4.25e31 s). Ending past it is a clear error naming the job
// (docs/semantics.md#time), never a wrapped clock, and so is a submission beyond it. The times
// are powers of two, exact as doubles: 2^104 = 20282409603651670423947251286016 and
// 2^105 = 40564819207303340847894502572032.
TEST(TimeRange, ChainedJobsEndingBeyondTheRangeStopWithAnError) {
  const std::string dir = cli_testing::output_dir();
  const std::string far = "20282409603651670423947251286016";
  std::ofstream swf(dir + "/far.swf");
  for (int id = 1; id <= 3; ++id)
    swf << id << " 0 0 " << far << " 1 -1 -1 1 " << far << " -1 1 1 1 1 1 -1 -1 -1\n";
  swf.close();
  const cli_testing::CommandResult result =
      run("simulate " + dir + "/far.swf --nodes 1 --no-progress --output " + dir + "/out");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("job 'w0!3' started at 40564819207303340847894502572032.000000 s "
                               "for 20282409603651670423947251286016.000000 s would end beyond "
                               "batfill's time range (4.25e31 s)"),
            std::string::npos)
      << result.output;
}

TEST(TimeRange, SubmissionBeyondTheRangeIsARejectedRecord) {
  const std::string dir = cli_testing::output_dir();
  std::ofstream(dir + "/far.swf")
      << "1 50000000000000000000000000000000 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n";
  const cli_testing::CommandResult result =
      run("simulate " + dir + "/far.swf --nodes 1 --no-progress --output " + dir + "/out");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("rejected 1: submit time (field 2) "
                               "'50000000000000000000000000000000' is negative or out of range"),
            std::string::npos)
      << result.output;
}

}  // namespace
}  // namespace batfill
