// batfill's policies for batsched 1.4's variants (docs/usage.md#batscheds-variants) against the
// real batsched's same variant (label `batsim`): the same workload under `simulate -v NAME` and
// under `simulate --scheduler` driving `batsched -v NAME`. The stand-in adds no message latency,
// so the two `_jobs.csv` files agree on every job: final state, start and finish within 0.05 s
// and the same machines. `random` is checked for validity only: batsched's draws come from
// another generator, and it shares machines, which batfill never does.

#include "batsim_support.hpp"

#include <cctype>
#include <tuple>

namespace batfill {
namespace {

using batsim_testing::Process;
using cli_testing::CsvRow;
using cli_testing::read_csv;
using cli_testing::run;
using namespace std::chrono_literals;

const std::string kData = BATFILL_SOURCE_DIR "/tests/batsim/data/";

struct JobsRun {
  int status = -1;
  std::string log;
  std::vector<CsvRow> jobs;
};

// The made-up workloads run on 4 machines; KTH-SP2 on its own 100.
const std::string kKth = "../../../workloads/KTH-SP2-1996-2.1-cln.swf.gz";

std::string machines_of(const std::string& workload) {
  return workload == kKth ? " --nodes 100" : " --nodes 4";
}

std::string simulate(const std::string& workload, const std::string& how,
                     const std::string& prefix) {
  return "simulate " + kData + workload + machines_of(workload) + " --no-progress " + how +
         " --output " + prefix;
}

JobsRun ours(const std::string& variant, const std::string& workload, const std::string& dir) {
  const std::string prefix = dir + "/ours_" + variant;
  const cli_testing::CommandResult result = run(simulate(workload, "-v " + variant, prefix));
  return {result.exit_code, result.output, read_csv(prefix + "_jobs.csv")};
}

JobsRun batscheds(const std::string& batsched, const std::string& variant,
                  const std::string& workload, const std::string& dir) {
  const int port = batsim_testing::next_port();
  const std::string prefix = dir + "/batsched_" + variant;
  Process scheduler(batsched + " -v " + variant + " -s tcp://127.0.0.1:" + std::to_string(port),
                    prefix + "_batsched.log");
  const cli_testing::CommandResult result = run(simulate(
      workload, "--timeout 60 --scheduler tcp://127.0.0.1:" + std::to_string(port), prefix));
  scheduler.wait(30s);
  return {result.exit_code, result.output + scheduler.log(), read_csv(prefix + "_jobs.csv")};
}

std::map<std::string, CsvRow> by_id(const std::vector<CsvRow>& rows) {
  std::map<std::string, CsvRow> jobs;
  for (const CsvRow& row : rows) jobs[row.at("job_id")] = row;
  return jobs;
}

double number(const CsvRow& row, const std::string& column) { return std::stod(row.at(column)); }

void expect_same_jobs(const JobsRun& real, const JobsRun& mine, const std::string& what) {
  ASSERT_EQ(real.status, 0) << what << "\n" << batsim_testing::tail(real.log);
  ASSERT_EQ(mine.status, 0) << what << "\n" << batsim_testing::tail(mine.log);
  const auto real_jobs = by_id(real.jobs);
  const auto my_jobs = by_id(mine.jobs);
  ASSERT_FALSE(real_jobs.empty()) << what;
  ASSERT_EQ(my_jobs.size(), real_jobs.size()) << what;
  for (const auto& [id, row] : real_jobs) {
    ASSERT_EQ(my_jobs.count(id), 1u) << what << " job " << id;
    const CsvRow& my = my_jobs.at(id);
    EXPECT_EQ(my.at("final_state"), row.at("final_state")) << what << " job " << id;
    EXPECT_EQ(my.at("allocated_resources"), row.at("allocated_resources")) << what << " job " << id;
    if (row.at("final_state") == "REJECTED") continue;
    EXPECT_NEAR(number(my, "starting_time"), number(row, "starting_time"), 0.05)
        << what << " job " << id;
    EXPECT_NEAR(number(my, "finish_time"), number(row, "finish_time"), 0.05)
        << what << " job " << id;
  }
}

using Case = std::tuple<const char*, const char*>;  // variant, workload

class VariantBesideBatsched : public ::testing::TestWithParam<Case> {};

TEST_P(VariantBesideBatsched, SameJobsAsBatsched) {
  BATFILL_REQUIRE_PROGRAM("BATSCHED", batsched);
  const auto [variant, workload] = GetParam();
  const std::string dir = cli_testing::output_dir();
  const JobsRun real = batscheds(batsched, variant, workload, dir);
  const JobsRun mine = ours(variant, workload, dir);
  expect_same_jobs(real, mine, std::string(variant) + " on " + workload);
  cli_testing::expect_valid_schedule(dir + "/ours_" + std::string(variant) + "_jobs.csv",
                                     machines_of(workload) + " --workload " + kData + workload);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [variant, workload] = info.param;
  std::string name = std::string(variant) + "_" + workload;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    Variants, VariantBesideBatsched,
    ::testing::Combine(::testing::Values("easy_bf_fast", "filler", "sequencer", "rejecter",
                                         "waiting_time_estimator"),
                       ::testing::Values("variants/stale_plan.json", "variants/extra_node.json",
                                         "variants/fill.json", "energy/test_delays.json")),
    case_name);

// A real trace, 28,476 jobs: easy_bf_fast's kept plans and filler's passes over wide jobs at
// every scale (measured: no start and no allocation differs).
INSTANTIATE_TEST_SUITE_P(Kth, VariantBesideBatsched,
                         ::testing::Combine(::testing::Values("easy_bf_fast", "filler"),
                                            ::testing::Values(kKth.c_str())),
                         case_name);

// batfill's random: valid, every job run, machines drawn; the same machines in two runs.
TEST(RandomVariant, ValidAndReproducible) {
  const std::string dir = cli_testing::output_dir();
  for (const char* workload : {"variants/fill.json", "variants/stale_plan.json"}) {
    const JobsRun first = ours("random", workload, dir);
    ASSERT_EQ(first.status, 0) << first.log;
    cli_testing::expect_valid_schedule(dir + "/ours_random_jobs.csv",
                                       machines_of(workload) + " --workload " + kData + workload);
    const JobsRun second = ours("random", workload, dir);
    EXPECT_EQ(by_id(first.jobs).size(), by_id(second.jobs).size());
    for (const auto& [id, row] : by_id(first.jobs)) {
      EXPECT_EQ(row.at("final_state").rfind("COMPLETED_", 0), 0u) << workload << " job " << id;
      EXPECT_EQ(by_id(second.jobs).at(id).at("allocated_resources"), row.at("allocated_resources"))
          << workload << " job " << id;
    }
  }
}

}  // namespace
}  // namespace batfill
