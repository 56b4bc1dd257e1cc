// Energy beside a real Batsim 4.2.1 run with --energy (label `batsim`): batfill's drop-ins for
// batsched's sleeper and energy_watcher give Batsim the same decisions as batsched, so Batsim
// writes the same outputs; and idle power-off (docs/semantics.md#idle-power-off-power_off_after)
// under easy-classic and conservative-classic runs KTH-SP2 to a clean end with a schedule
// `batfill check` accepts.

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "batsim_support.hpp"

namespace batfill {
namespace {

using batsim_testing::Process;
using cli_testing::CsvRow;
using cli_testing::read_csv;
using namespace std::chrono_literals;

constexpr const char* kEnergyPlatform =
    BATFILL_SOURCE_DIR "/tests/batsim/data/energy/energy_platform_homogeneous_no_net_128.xml";

struct EnergyRun {
  int batsim_status = -1;
  int scheduler_status = -1;
  std::string logs;
};

// Batsim --energy beside `scheduler`, a command line completed with the socket's endpoint.
EnergyRun run_with_energy(const std::string& batsim, const std::string& platform,
                          const std::string& workload, const std::string& prefix,
                          const std::string& scheduler) {
  const std::string endpoint = "tcp://127.0.0.1:" + std::to_string(batsim_testing::next_port());
  Process sched(scheduler + " -s " + endpoint, prefix + "_scheduler.log");
  Process sim(batsim + " -q -E -p " + platform + " -w " + workload + " -e " + prefix + " -s " +
                  endpoint,
              prefix + "_batsim.log");
  EnergyRun run;
  run.batsim_status = sim.wait(600s);
  if (run.batsim_status != 0) sched.kill_now();
  run.scheduler_status = sched.wait(30s);
  run.logs = sim.log() + batsim_testing::tail(sched.log());
  return run;
}

// What Batsim wrote of each job: its start, end and energy.
std::vector<std::string> job_outcomes(const std::string& prefix) {
  std::vector<std::string> outcomes;
  for (const CsvRow& row : read_csv(prefix + "_jobs.csv")) {
    outcomes.push_back(row.at("job_id") + " " + row.at("starting_time") + " " +
                       row.at("finish_time") + " " + row.at("consumed_energy"));
  }
  return outcomes;
}

std::string schedule_value(const std::string& prefix, const std::string& column) {
  const std::vector<CsvRow> rows = read_csv(prefix + "_schedule.csv");
  return rows.empty() ? "(no _schedule.csv)" : rows.front().at(column);
}

// Batsim's own energy workloads (tests/batsim/data/README.md) on its 128-machine energy platform,
// with the variant options of Batsim's test_energy.py.
class EnergyDropIns : public ::testing::TestWithParam<const char*> {};

TEST_P(EnergyDropIns, BatsimWritesWhatItWritesBesideBatsched) {
  BATFILL_REQUIRE_PROGRAM("BATSIM", batsim);
  BATFILL_REQUIRE_PROGRAM("BATSCHED", batsched);
  const std::string platform = kEnergyPlatform;
  ASSERT_TRUE(std::filesystem::exists(platform)) << platform;
  const std::string dir = cli_testing::output_dir();
  const std::string variant = GetParam();
  const std::string options =
      " -v " + variant + R"( --variant_options '{"pstate_sleep":13,"pstate_compute":0}')";
  for (const char* load : {"0", "50", "100"}) {
    const std::string workload =
        BATFILL_SOURCE_DIR "/tests/batsim/data/energy/test_energy_minimal_load" +
        std::string(load) + ".json";
    const std::string ours = dir + "/batfill-" + variant + "-" + load;
    const std::string theirs = dir + "/batsched-" + variant + "-" + load;
    const EnergyRun batfill_run = run_with_energy(
        batsim, platform, workload, ours,
        std::string(BATFILL_BINARY) + " serve --timeout 120 --verbosity quiet" + options);
    const EnergyRun batsched_run =
        run_with_energy(batsim, platform, workload, theirs, batsched + options);
    const std::string what = variant + " on load " + load;
    ASSERT_EQ(batfill_run.batsim_status, 0) << what << "\n" << batfill_run.logs;
    EXPECT_EQ(batfill_run.scheduler_status, 0) << what << "\n" << batfill_run.logs;
    ASSERT_EQ(batsched_run.batsim_status, 0) << what << "\n" << batsched_run.logs;
    EXPECT_EQ(job_outcomes(ours), job_outcomes(theirs)) << what;
    EXPECT_EQ(schedule_value(ours, "consumed_joules"), schedule_value(theirs, "consumed_joules"))
        << what;
    EXPECT_EQ(schedule_value(ours, "nb_machine_switches"),
              schedule_value(theirs, "nb_machine_switches"))
        << what;
    EXPECT_EQ(cli_testing::read_file(ours + "_pstate_changes.csv"),
              cli_testing::read_file(theirs + "_pstate_changes.csv"))
        << what;
    cli_testing::expect_valid_schedule(ours + "_jobs.csv",
                                       "--platform " + platform + " --workload " + workload);
    std::cout << "[ batsim  ] " << what << ": consumed_joules "
              << schedule_value(ours, "consumed_joules") << " beside both, "
              << schedule_value(ours, "nb_machine_switches") << " switches\n";
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, EnergyDropIns, ::testing::Values("sleeper", "energy_watcher"));

// KTH-SP2 on the 128-machine energy platform, with the platform's switch times (1/speed of its
// virtual pstates 14 and 15), beside the same run without idle power-off.
class IdlePowerOffOnKth : public ::testing::TestWithParam<const char*> {};

TEST_P(IdlePowerOffOnKth, EndsCleanlyWithAValidSchedule) {
  BATFILL_REQUIRE_PROGRAM("BATSIM", batsim);
  const std::string platform = kEnergyPlatform;
  ASSERT_TRUE(std::filesystem::exists(platform)) << platform;
  const std::string dir = cli_testing::output_dir();
  const std::string workload = batsim_testing::swf_to_batsim_json(
      BATFILL_SOURCE_DIR "/workloads/KTH-SP2-1996-2.1-cln.swf.gz", 128, dir + "/kth128.json");
  const std::string policy = GetParam();
  const std::string serve = std::string(BATFILL_BINARY) +
                            " serve --timeout 120 --verbosity quiet --backfill " + policy;
  const std::string prefix = dir + "/power-" + policy;
  const EnergyRun run = run_with_energy(
      batsim, platform, workload, prefix,
      serve + " --power-off-after 300 --pstate-sleep 13 --power-switch-off 6.1 "
              "--power-switch-on 151.52");
  ASSERT_EQ(run.batsim_status, 0) << policy << "\n" << run.logs;
  EXPECT_EQ(run.scheduler_status, 0) << policy << "\n" << run.logs;
  const std::vector<CsvRow> jobs = read_csv(prefix + "_jobs.csv");
  EXPECT_EQ(jobs.size(), batsim_testing::workload_job_count(workload));
  for (const CsvRow& row : jobs) {
    EXPECT_EQ(row.at("final_state").rfind("COMPLETED_", 0), 0u) << row.at("job_id");
  }
  cli_testing::expect_valid_schedule(prefix + "_jobs.csv",
                                     "--platform " + platform + " --workload " + workload);
  EXPECT_GT(std::stol(schedule_value(prefix, "nb_machine_switches")), 0);

  const std::string always_on = dir + "/always-on-" + policy;
  const EnergyRun baseline = run_with_energy(batsim, platform, workload, always_on, serve);
  ASSERT_EQ(baseline.batsim_status, 0) << policy << "\n" << baseline.logs;
  std::cout << "[ batsim  ] KTH-SP2, " << policy << ", power off after 300 s: "
            << schedule_value(prefix, "consumed_joules") << " J, mean wait "
            << schedule_value(prefix, "mean_waiting_time") << " s, "
            << schedule_value(prefix, "nb_machine_switches") << " switches; never off: "
            << schedule_value(always_on, "consumed_joules") << " J, mean wait "
            << schedule_value(always_on, "mean_waiting_time") << " s\n";
}

INSTANTIATE_TEST_SUITE_P(Policies, IdlePowerOffOnKth,
                         ::testing::Values("easy-classic", "conservative-classic"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace batfill
