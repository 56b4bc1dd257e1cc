// The embedded simulator on a Batsim platform file, with the profile types it executes:
// parallel tasks run by SimGrid and stopped at their walltime, zero-length delays, failing
// profiles, and unsupported types rejected with a reason.

#include <fstream>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::read_csv;
using cli_testing::run;

// Expected durations come from the platform: platforms/cluster16.xml hosts compute 1 Gflop/s,
// so a parallel task of 2e9 flops per host and no communication takes exactly 2 s.
const char* const kWorkload = R"({
  "nb_res": 16,
  "jobs": [
    {"id": "ptask", "subtime": 0, "res": 2, "profile": "two_seconds", "walltime": 100},
    {"id": "too_long", "subtime": 0, "res": 3, "profile": "forever", "walltime": 5},
    {"id": "instant", "subtime": 1, "res": 1, "profile": "nothing", "walltime": 10},
    {"id": "fails", "subtime": 1, "res": 1, "profile": "failing", "walltime": 10},
    {"id": "mpi", "subtime": 2, "res": 1, "profile": "trace", "walltime": 10}
  ],
  "profiles": {
    "two_seconds": {"type": "parallel_homogeneous", "cpu": 2e9, "com": 0},
    "forever": {"type": "parallel_homogeneous", "cpu": 1e15, "com": 1e6},
    "nothing": {"type": "delay", "delay": 0},
    "failing": {"type": "delay", "delay": 3, "ret": 1},
    "trace": {"type": "smpi", "trace": "x.txt"}
  }
})";

std::map<std::string, cli_testing::CsvRow> by_id(const std::vector<cli_testing::CsvRow>& rows) {
  std::map<std::string, cli_testing::CsvRow> map;
  for (const auto& row : rows) map[row.at("job_id")] = row;
  return map;
}

TEST(Platform, ProfilesRunOnTheClusterAndStopAtTheirWalltime) {
  const std::string dir = cli_testing::output_dir();
  std::ofstream(dir + "/w.json") << kWorkload;
  const cli_testing::CommandResult result = run("simulate " + dir +
                                                "/w.json --platform " BATFILL_SOURCE_DIR
                                                "/platforms/cluster16.xml --no-progress --output " +
                                                dir + "/out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  cli_testing::expect_valid_schedule(dir + "/out_jobs.csv", "--platform " BATFILL_SOURCE_DIR
                                                            "/platforms/cluster16.xml --workload " +
                                                                dir + "/w.json");
  const auto jobs = by_id(read_csv(dir + "/out_jobs.csv"));
  ASSERT_EQ(jobs.size(), 5u);

  EXPECT_EQ(jobs.at("ptask").at("final_state"), "COMPLETED_SUCCESSFULLY");
  EXPECT_EQ(jobs.at("ptask").at("execution_time"), "2.000000");
  EXPECT_EQ(jobs.at("ptask").at("allocated_resources"), "0-1");

  EXPECT_EQ(jobs.at("too_long").at("final_state"), "COMPLETED_WALLTIME_REACHED");
  EXPECT_EQ(jobs.at("too_long").at("execution_time"), "5.000000");

  EXPECT_EQ(jobs.at("instant").at("final_state"), "COMPLETED_SUCCESSFULLY");
  EXPECT_EQ(jobs.at("instant").at("execution_time"), "0.000000");
  EXPECT_EQ(jobs.at("instant").at("starting_time"), "1.000000");

  EXPECT_EQ(jobs.at("fails").at("final_state"), "COMPLETED_FAILED");
  EXPECT_EQ(jobs.at("fails").at("success"), "0");

  EXPECT_EQ(jobs.at("mpi").at("final_state"), "REJECTED");
  EXPECT_NE(result.output.find("smpi"), std::string::npos) << result.output;

  // The master host runs the simulator and is not a compute machine.
  EXPECT_EQ(read_csv(dir + "/out_schedule.csv").front().at("nb_computing_machines"), "16");
}

TEST(Platform, NodesKeepsTheFirstComputeHosts) {
  const std::string dir = cli_testing::output_dir();
  const cli_testing::CommandResult result = run(
      "simulate " BATFILL_SOURCE_DIR "/workloads/tiny_batsim.json --platform " BATFILL_SOURCE_DIR
      "/platforms/cluster16.xml --nodes 4 "
      "--no-progress --output " +
      dir + "/out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(read_csv(dir + "/out_schedule.csv").front().at("nb_computing_machines"), "4");
  const cli_testing::CommandResult too_many = run(
      "simulate " BATFILL_SOURCE_DIR "/workloads/tiny_batsim.json --platform " BATFILL_SOURCE_DIR
      "/platforms/cluster16.xml --nodes 17 "
      "--output " +
      dir + "/x");
  EXPECT_NE(too_many.exit_code, 0);
  EXPECT_NE(too_many.output.find("16 compute hosts"), std::string::npos) << too_many.output;
}

// A platform may shrink the stack of SimGrid's actors, as Batsim 4's example
// simple_coalloc_platform.xml does (16 KiB): the stand-in and batfill's scheduler run in one, so
// nothing of theirs may keep large buffers on the stack. With the guard page SimGrid keeps by
// default, a frame of 20 KiB (user fields parsed in stack buffers that size) faults at once.
TEST(Platform, SmallActorStackRunsEveryPolicy) {
  const std::string dir = cli_testing::output_dir();
  const std::string platform = dir + "/small_stack.xml";
  std::ofstream(platform) << R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <config>
    <prop id="contexts/stack-size" value="16"/>
  </config>
  <zone id="world" routing="Full">
    <host id="master_host" speed="1Gf"/>
    <host id="host0" speed="1Gf"/>
    <host id="host1" speed="1Gf"/>
    <host id="host2" speed="1Gf"/>
    <host id="host3" speed="1Gf"/>
  </zone>
</platform>
)";
  const std::string simulate = "simulate " +
                               cli_testing::source_path("workloads/tiny_batsim.json") +
                               " --platform " + platform + " --no-progress";
  for (const std::string& policy : cli_testing::kPolicies) {
    const auto result = run(simulate + " --backfill " + policy + " --output " + dir + "/" + policy);
    EXPECT_EQ(result.exit_code, 0) << policy << ": " << result.output;
  }
  // With an external scheduler the actor also decodes its replies.
  const std::string endpoint = cli_testing::ipc_endpoint("stack");
  const cli_testing::ExternalRun external =
      cli_testing::run_external(endpoint, "", simulate + " --output " + dir + "/external", dir);
  EXPECT_EQ(external.simulate.exit_code, 0) << external.simulate.output;
  EXPECT_EQ(external.serve_exit_code, 0) << external.serve_log;
}

TEST(Platform, MissingPlatformFileIsNamed) {
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR "/workloads/tiny.swf --platform " BATFILL_SOURCE_DIR
          "/platforms/nope.xml --output " +
          cli_testing::output_dir() + "/x");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find(BATFILL_SOURCE_DIR "/platforms/nope.xml"), std::string::npos)
      << result.output;
}

}  // namespace
}  // namespace batfill
