// `simulate --energy` (docs/protocol.md#the-power-model-of-the-stand-in): the energy outputs of
// a run whose joules follow by hand from the platform's power properties, and bad power
// properties named with their host.

#include <fstream>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::read_csv;
using cli_testing::read_file;
using cli_testing::run;

const std::string kPlatform = BATFILL_SOURCE_DIR "/tests/cli/data/energy/two_hosts.xml";
const std::string kWorkload = BATFILL_SOURCE_DIR "/tests/cli/data/energy/two_jobs.json";

cli_testing::CommandResult simulate_energy(const std::string& platform, const std::string& prefix) {
  return run("simulate " + kWorkload + " --platform " + platform +
             " --energy --no-progress --output " + prefix);
}

std::string with_replaced(const std::string& text, const std::string& from, const std::string& to) {
  std::string copy = text;
  const std::size_t at = copy.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) copy.replace(at, from.size(), to);
  return copy;
}

// The platform with its first `from` replaced, written in the test's directory.
std::string platform_with(const std::string& dir, const std::string& from, const std::string& to) {
  const std::string path = dir + "/platform.xml";
  std::ofstream(path) << with_replaced(read_file(kPlatform), from, to);
  return path;
}

// By hand, from two_hosts.xml and two_jobs.json under EASY: job 1 (a delay, 10 s) runs on h0
// from 0 to 10 and leaves it idle, drawing 100 W; job 2 (1000 flops per host at 100 flop/s)
// loads both hosts from 20 to 30 at 200 W. From the first submission (0) to the last end (30):
// 2 x 100 W x 20 s + 2 x 200 W x 10 s = 8000 J; job 1 1000 J, job 2 4000 J. Machine-seconds:
// computing 10 + 2 x 10, idle h0 10 to 20 and h1 0 to 20 (each up to its last change).
TEST(Energy, OutputsFollowThePowerProperties) {
  const std::string dir = cli_testing::output_dir();
  const cli_testing::CommandResult result = simulate_energy(kPlatform, dir + "/out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("energy: 8000.000000 J"), std::string::npos) << result.output;

  const auto schedule = read_csv(dir + "/out_schedule.csv");
  ASSERT_EQ(schedule.size(), 1u);
  EXPECT_EQ(schedule[0].at("consumed_joules"), "8000.000000");
  EXPECT_EQ(schedule[0].at("time_computing"), "30.000000");
  EXPECT_EQ(schedule[0].at("time_idle"), "30.000000");
  EXPECT_EQ(schedule[0].at("time_sleeping"), "0.000000");
  EXPECT_EQ(schedule[0].at("nb_machine_switches"), "0");

  const auto jobs = read_csv(dir + "/out_jobs.csv");
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].at("consumed_energy"), "1000.000000");
  EXPECT_EQ(jobs[1].at("consumed_energy"), "4000.000000");

  EXPECT_EQ(read_file(dir + "/out_pstate_changes.csv"), "time,machine_id,new_pstate\n0,0-1,0\n");
  EXPECT_EQ(read_file(dir + "/out_machine_states.csv"),
            "time,nb_sleeping,nb_switching_on,nb_switching_off,nb_idle,nb_computing\n"
            "0,0,0,0,1,1\n10,0,0,0,2,0\n20,0,0,0,0,2\n30,0,0,0,2,0\n");
  // Job starts and ends: the joules so far, and the mean power since the row before.
  EXPECT_EQ(read_file(dir + "/out_consumed_energy.csv"),
            "time,energy,event_type,wattmin,epower\n"
            "0.000000,0.000000,s,200.000000,NA\n"
            "10.000000,2000.000000,e,200.000000,200.000000\n"
            "20.000000,4000.000000,s,200.000000,200.000000\n"
            "30.000000,8000.000000,e,200.000000,400.000000\n");
  cli_testing::expect_valid_schedule(dir + "/out_jobs.csv",
                                     "--platform " + kPlatform + " --workload " + kWorkload);
}

// SimGrid 3.32's energy plugin knows only `wattage_per_state`; Batsim's older platforms say
// `watt_per_state`.
TEST(Energy, OlderWattPerStateIsRead) {
  const std::string dir = cli_testing::output_dir();
  std::string xml = read_file(kPlatform);
  for (std::size_t at; (at = xml.find("wattage_per_state")) != std::string::npos;) {
    xml.replace(at, 17, "watt_per_state");
  }
  std::ofstream(dir + "/older.xml") << xml;
  const cli_testing::CommandResult result = simulate_energy(dir + "/older.xml", dir + "/out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(read_csv(dir + "/out_schedule.csv")[0].at("consumed_joules"), "8000.000000");
}

TEST(Energy, BadPowerPropertiesNameTheHostAndProperty) {
  const std::string dir = cli_testing::output_dir();
  const std::pair<std::pair<std::string, std::string>, std::string> cases[] = {
      {{"100:200, 80:150", "100:x, 80:150"},
       "host 'h0': property 'wattage_per_state' has '100:x' for pstate 0: expected Idle:AllCores "
       "or Idle:Epsilon:AllCores"},
      {{"100:200, 80:150, 5:5, 50:50, 40:40", "100:200"},
       "host 'h0': property 'wattage_per_state' gives 1 power ranges for 5 pstates"},
      {{"\"2:3:4\"", "\"2:3:9\""},
       "host 'h0': property 'sleep_pstates' has '2:3:9': expected sleep:off:on, three pstates of "
       "the host's 5 (0 to 4)"},
      {{"\"2:3:4\"", "\"2:2:4\""}, "host 'h0': property 'sleep_pstates' gives pstate 2 two roles"},
      {{"\"1\"", "\"one\""}, "host 'h0': property 'wattage_off' is 'one'"},
  };
  for (const auto& [change, message] : cases) {
    const std::string platform = platform_with(dir, change.first, change.second);
    const cli_testing::CommandResult result = simulate_energy(platform, dir + "/out");
    EXPECT_NE(result.exit_code, 0) << change.second;
    EXPECT_NE(result.output.find(message), std::string::npos) << result.output;
    EXPECT_NE(result.output.find(platform), std::string::npos) << result.output;
  }
}

// Without --energy the platform's power properties change nothing and no energy file is made.
TEST(Energy, WithoutEnergyNothingChanges) {
  const std::string dir = cli_testing::output_dir();
  const cli_testing::CommandResult result =
      run("simulate " + kWorkload + " --platform " + kPlatform + " --no-progress --output " + dir +
          "/out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(read_csv(dir + "/out_schedule.csv")[0].at("consumed_joules"), "0.000000");
  EXPECT_EQ(read_csv(dir + "/out_jobs.csv")[0].at("consumed_energy"), "-1");
  EXPECT_FALSE(std::filesystem::exists(dir + "/out_pstate_changes.csv"));
  EXPECT_EQ(result.output.find("energy:"), std::string::npos);
}

// Decisions of a scripted Batsim 5 EDC (tests/support/misbehaving_edc.cpp): each line is a
// text to wait for in a request and the events to decide then.
const std::string kJob1Submitted = R"("job_id":"w0!1","job")";
const std::string kJob2Submitted = R"("job_id":"w0!2","job")";

std::string execute(const std::string& job, const std::string& hosts) {
  return R"({"timestamp":NOW,"event_type":"ExecuteJobEvent","event":{"job_id":")" + job +
         R"(","allocation":{"host_allocation":")" + hosts +
         R"(","executor_placement_type":"PredefinedExecutorPlacementStrategyWrapper",)"
         R"("executor_placement":{"strategy":"SpreadOverHostsFirst"}}}})";
}

std::string turn(const std::string& hosts, int pstate) {
  return R"({"timestamp":NOW,"event_type":"TurnOnOffHostsEvent","event":{"host_ids":")" + hosts +
         R"(","state":)" + std::to_string(pstate) + "}}";
}

std::string turned(const std::string& hosts, int pstate) {
  return R"("event_type":"HostsTurnedOnOffEvent","event":{"host_ids":")" + hosts + R"(","state":)" +
         std::to_string(pstate) + "}";
}

cli_testing::CommandResult simulate_script(
    const std::vector<std::pair<std::string, std::string>>& lines, const std::string& prefix,
    const std::string& energy = " --energy") {
  std::string script = "script";
  for (const auto& [trigger, events] : lines) script += "\n" + trigger + "\t" + events;
  return run("simulate " + kWorkload + " --platform " + kPlatform + energy +
             " --no-progress --scheduler-library " BATFILL_MISBEHAVING_EDC " --scheduler-init '" +
             script + "' --output " + prefix);
}

// By hand: h1 switches off at 0 (1 flop at 0.5 flop/s: 2 s at 50 W), sleeps from 2 to 20 (5 W),
// switches on from 20 (1 flop at 0.25 flop/s: 4 s at 40 W), and computes job 2 with h0 from 24
// to 34 (200 W each); h0 idles until then (100 W), job 1 being a delay. From 0 to 34:
// h0 24 x 100 + 10 x 200 = 4400 J, h1 100 + 90 + 160 + 2000 = 2350 J.
TEST(Energy, Batsim5PowerDecisionsSwitchMachines) {
  const std::string dir = cli_testing::output_dir();
  const cli_testing::CommandResult result =
      simulate_script({{kJob1Submitted, execute("w0!1", "0") + "," + turn("1", 2)},
                       {kJob2Submitted, turn("1", 0)},
                       {turned("1", 0), execute("w0!2", "0-1")}},
                      dir + "/out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto schedule = read_csv(dir + "/out_schedule.csv");
  ASSERT_EQ(schedule.size(), 1u);
  EXPECT_EQ(schedule[0].at("consumed_joules"), "6750.000000");
  EXPECT_EQ(schedule[0].at("nb_machine_switches"), "2");
  EXPECT_EQ(schedule[0].at("nb_grouped_switches"), "2");
  EXPECT_EQ(schedule[0].at("time_switching_off"), "2.000000");
  EXPECT_EQ(schedule[0].at("time_sleeping"), "18.000000");
  EXPECT_EQ(schedule[0].at("time_switching_on"), "4.000000");
  EXPECT_EQ(schedule[0].at("time_computing"), "30.000000");
  EXPECT_EQ(schedule[0].at("time_idle"), "14.000000");
  EXPECT_EQ(read_file(dir + "/out_pstate_changes.csv"),
            "time,machine_id,new_pstate\n0,0-1,0\n0,1,-2\n2,1,2\n20,1,-1\n24,1,0\n");
  EXPECT_EQ(read_csv(dir + "/out_jobs.csv")[1].at("starting_time"), "24.000000");
}

// What Batsim refuses (or aborts on) is refused naming the decision and the machine.
TEST(Energy, BadPowerDecisionsAreRefused) {
  const std::string dir = cli_testing::output_dir();
  const std::pair<std::vector<std::pair<std::string, std::string>>, std::string> cases[] = {
      {{{kJob1Submitted, turn("1", 9)}},
       "invalid decision at t=0.000000: SET_RESOURCE_STATE of machines '1' to pstate 9: machine 1 "
       "('h1') has no pstate 9 (it has 5)"},
      {{{kJob1Submitted, turn("1", 3)}},
       "SET_RESOURCE_STATE of machines '1' to pstate 3: machine 1 ('h1') passes through pstate 3 "
       "only while switching"},
      {{{kJob1Submitted, execute("w0!1", "0") + "," + turn("0", 2)}},
       "SET_RESOURCE_STATE of machines '0' to pstate 2: machine 0 ('h0') is computing a job"},
      {{{kJob1Submitted, turn("1", 2)}, {turned("1", 2), turn("1", 2)}},
       "invalid decision at t=2.000000: SET_RESOURCE_STATE of machines '1' to pstate 2: machine 1 "
       "('h1') sleeps: it goes from one sleep pstate to another only through a computation pstate"},
      {{{kJob1Submitted, turn("1", 2)}, {turned("1", 2), execute("w0!1", "1")}},
       "invalid decision at t=2.000000: EXECUTE_JOB of 'w0!1' on machine 1 ('h1'), which is "
       "sleeping"},
      {{{kJob1Submitted, turn("1", 2) + "," + execute("w0!1", "1")}},
       "EXECUTE_JOB of 'w0!1' on machine 1 ('h1'), which is switching off"},
      {{{kJob1Submitted, turn("0", 1)}},
       "machine 0 ('h0') would only change its computation pstate, which turning on or off "
       "cannot do"},
  };
  for (const auto& [script, message] : cases) {
    const cli_testing::CommandResult result = simulate_script(script, dir + "/out");
    EXPECT_NE(result.exit_code, 0) << message;
    EXPECT_NE(result.output.find(message), std::string::npos) << result.output;
  }
  const cli_testing::CommandResult without =
      simulate_script({{kJob1Submitted, turn("1", 2)}}, dir + "/out", "");
  EXPECT_NE(without.exit_code, 0);
  EXPECT_NE(without.output.find("SET_RESOURCE_STATE without --energy"), std::string::npos)
      << without.output;
}

TEST(Energy, NeedsAPlatform) {
  const cli_testing::CommandResult result =
      run("simulate " + kWorkload + " --energy --no-progress");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("--energy needs --platform FILE"), std::string::npos)
      << result.output;
}

}  // namespace
}  // namespace batfill
