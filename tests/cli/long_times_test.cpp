// A Batsim JSON workload submitting at 10^13 to 10^17 s, replayed by `batfill simulate` to the
// end: times past 64 bits of microseconds stay exact (docs/semantics.md#time). Every expected
// time below is derived by hand in the comments.

#include <fstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::CsvRow;

// Two machines. Near 10^17 s doubles are 16 s apart, so 1e17 + 16 and 1e17 + 32 are doubles
// (written as JSON integers here), and 1e17 + 10 is none.
constexpr const char* kWorkload = R"({"nb_res": 2,
 "jobs": [
  {"id": 1, "subtime": 1e13, "res": 1, "walltime": 100, "profile": "d10"},
  {"id": 2, "subtime": 1e17, "res": 2, "walltime": 100, "profile": "d10"},
  {"id": 3, "subtime": 1e17, "res": 1, "walltime": 100, "profile": "d10"},
  {"id": 4, "subtime": 100000000000000016, "res": 1, "walltime": 100, "profile": "d10"},
  {"id": 5, "subtime": 100000000000000032, "res": 1, "walltime": 100, "profile": "p10"}
 ],
 "profiles": {
  "d10": {"type": "delay", "delay": 10},
  "p10": {"type": "parallel_homogeneous", "cpu": 1e10, "com": 0}
 }})";

struct Expected {
  const char* id;
  const char* start;
  const char* execution;
  const char* finish;
  const char* waiting;
};

// Job 1 runs alone: 1e13 to 1e13 + 10. At 1e17 jobs 2 and 3 arrive together; job 2 (both
// machines) goes first by id, 1e17 to 1e17 + 10, an end no double holds; job 3 waits for it and
// runs 1e17 + 10 to 1e17 + 20 (waiting 10 s). Job 4 arrives at 1e17 + 16 to the machine job 2
// freed: 1e17 + 16 to 1e17 + 26. Delay jobs run on batfill's integer clock, so these are exact
// under every policy (nothing can be backfilled). Job 5, a parallel task of 10^10 flops on a
// 10^9 flop/s host, runs in SimGrid, whose clock is a double: it starts at 1e17 + 32 (both
// machines free) and SimGrid's end, 1e17 + 42, lands on the nearest double, 1e17 + 48 (6 s
// away, against 10 s for 1e17 + 32), so it lasts 16 s, as a real Batsim would say too.
const std::vector<Expected> kRows = {
    {"1", "10000000000000.000000", "10.000000", "10000000000010.000000", "0.000000"},
    {"2", "100000000000000000.000000", "10.000000", "100000000000000010.000000", "0.000000"},
    {"3", "100000000000000010.000000", "10.000000", "100000000000000020.000000", "10.000000"},
    {"4", "100000000000000016.000000", "10.000000", "100000000000000026.000000", "0.000000"},
    {"5", "100000000000000032.000000", "16.000000", "100000000000000048.000000", "0.000000"},
};

void expect_rows(const std::vector<CsvRow>& rows, const std::string& what) {
  ASSERT_EQ(rows.size(), kRows.size()) << what;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CsvRow& row = rows[i];
    const Expected& want = kRows[i];
    EXPECT_EQ(row.at("job_id"), want.id) << what;
    EXPECT_EQ(row.at("final_state"), "COMPLETED_SUCCESSFULLY") << what << " job " << want.id;
    EXPECT_EQ(row.at("starting_time"), want.start) << what << " job " << want.id;
    EXPECT_EQ(row.at("execution_time"), want.execution) << what << " job " << want.id;
    EXPECT_EQ(row.at("finish_time"), want.finish) << what << " job " << want.id;
    EXPECT_EQ(row.at("waiting_time"), want.waiting) << what << " job " << want.id;
  }
}

TEST(LongTimes, SimulateReplaysSubmissionsUpTo1e17SecondsExactly) {
  const std::string dir = cli_testing::output_dir();
  const std::string workload = dir + "/long.json";
  std::ofstream(workload) << kWorkload;
  for (const std::string& policy : cli_testing::kPolicies) {
    const std::string prefix = dir + "/" + policy;
    const cli_testing::CommandResult result = cli_testing::run(
        "simulate " + workload + " --backfill " + policy + " --no-progress --output " + prefix);
    ASSERT_EQ(result.exit_code, 0) << policy << "\n" << result.output;
    EXPECT_NE(result.output.find("makespan: 100000000000000048.000000 s"), std::string::npos)
        << result.output;
    expect_rows(cli_testing::read_csv(prefix + "_jobs.csv"), policy);
    // batfill check reads the times from their text, so 1e17 + 10 is no double's 1e17 + 16.
    cli_testing::expect_valid_schedule(prefix + "_jobs.csv", "--nodes 2 --workload " + workload);
  }
}

// Through `batfill serve`, times go over the wire as JSON numbers, which a scheduler reads as
// doubles (docs/semantics.md#time): serve sees 1e17 + 10 as 1e17 + 16, but the stand-in keeps its
// exact clock, and no decision here depends on the difference.
TEST(LongTimes, SimulateBesideServeGivesTheSameSchedule) {
  const std::string dir = cli_testing::output_dir();
  const std::string workload = dir + "/long.json";
  std::ofstream(workload) << kWorkload;
  const std::string endpoint = cli_testing::ipc_endpoint("long");
  const cli_testing::ExternalRun external = cli_testing::run_external(
      endpoint, "--backfill easy",
      "simulate " + workload + " --no-progress --output " + dir + "/ext", dir);
  ASSERT_EQ(external.simulate.exit_code, 0) << external.simulate.output << external.serve_log;
  EXPECT_EQ(external.serve_exit_code, 0) << external.serve_log;
  expect_rows(cli_testing::read_csv(dir + "/ext_jobs.csv"), "beside serve");
}

}  // namespace
}  // namespace batfill
