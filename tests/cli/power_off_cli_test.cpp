// Idle power-off end to end (docs/semantics.md#idle-power-off-power_off_after): `simulate
// --energy` with batfill's own power decisions on Batsim's 128-machine energy platform, under
// every policy, and batsched's sleeper as batfill runs it.

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::read_csv;
using cli_testing::read_lines;
using cli_testing::run;

const std::string kData = BATFILL_SOURCE_DIR "/tests/batsim/data/energy/";
const std::string kPlatform = kData + "energy_platform_homogeneous_no_net_128.xml";
const std::string kWorkload = kData + "test_energy_minimal_load50.json";

std::vector<std::string> starts(const std::string& prefix) {
  std::vector<std::string> times;
  for (const auto& row : read_csv(prefix + "_jobs.csv")) times.push_back(row.at("starting_time"));
  return times;
}

// By hand, with the platform's switch times (6.1 s off, 151.52 s on): job 0 (2 machines, 5 s)
// runs at 0 on 0-1; 2-127, idle since 0, are switched off at 30 (asleep at 36.1), 0-1 at 35 (job
// 0 ended at 5; asleep at 41.1). Job 1 (2 machines) comes at 100: 0-1 are woken, back at 251.52,
// where it starts; it ends at 256.52 and 0-1 sleep again from 286.52 (asleep at 292.62).
TEST(PowerOff, SimulateEnergySwitchesIdleMachinesUnderEveryPolicy) {
  const std::vector<std::string> switches = {
      "time,machine_id,new_pstate", "0,0-127,0",      "30,2-127,-2",    "35,0-1,-2",
      "36.1,2-127,13",              "41.1,0-1,13",    "100,0-1,-1",     "251.52,0-1,0",
      "286.52,0-1,-2",              "292.62,0-1,13"};
  std::vector<std::string> policies = cli_testing::kPolicies;
  policies.push_back("sequential");
  for (const std::string& policy : policies) {
    const std::string prefix = cli_testing::output_dir() + "/" + policy;
    const cli_testing::CommandResult result =
        run("simulate " + kWorkload + " --platform " + kPlatform + " --energy --backfill " +
            policy +
            " --power-off-after 30 --pstate-sleep 13 --power-switch-off 6.1 "
            "--power-switch-on 151.52 --no-progress --output " +
            prefix);
    ASSERT_EQ(result.exit_code, 0) << policy << "\n" << result.output;
    EXPECT_EQ(starts(prefix), (std::vector<std::string>{"0.000000", "251.520000"})) << policy;
    EXPECT_EQ(read_lines(prefix + "_pstate_changes.csv"), switches) << policy;
    cli_testing::expect_valid_schedule(prefix + "_jobs.csv",
                                       "--platform " + kPlatform + " --workload " + kWorkload);
  }
}

// What real Batsim 4.2.1 --energy wrote beside batsched 1.4's sleeper on the same files
// (tests/batsim/batsim_energy_test.cpp runs both): the jobs start at 157.62 and 162.62, 319033.1656
// J in all.
TEST(PowerOff, SleeperAsBatschedRunsIt) {
  const std::string prefix = cli_testing::output_dir() + "/sleeper";
  const cli_testing::CommandResult result =
      run("simulate " + kWorkload + " --platform " + kPlatform +
          R"( --energy -v sleeper --variant_options '{"pstate_sleep":13,"pstate_compute":0}')"
          " --no-progress --output " +
          prefix);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(starts(prefix), (std::vector<std::string>{"157.620000", "162.620000"}));
  const auto schedule = read_csv(prefix + "_schedule.csv");
  ASSERT_EQ(schedule.size(), 1u);
  EXPECT_EQ(schedule[0].at("consumed_joules"), "319033.165600");
}

// Without --energy the stand-in has no power states: a power decision stops the run, named.
TEST(PowerOff, NeedsTheEnergyModel) {
  const cli_testing::CommandResult result =
      run("simulate " + kWorkload + " --platform " + kPlatform +
          " --power-off-after 30 --pstate-sleep 13 --no-progress --output " +
          cli_testing::output_dir() + "/no-energy");
  EXPECT_NE(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("SET_RESOURCE_STATE"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace batfill
