// End-to-end runs of `batfill simulate` on bundled workloads.

#include <fstream>
#include <set>

#include "batfill/common/machine_set.hpp"
#include "cli_support.hpp"

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

using cli_testing::read_csv;
using cli_testing::run;

std::map<std::string, std::string> schedule_row(const std::string& prefix) {
  const std::vector<cli_testing::CsvRow> rows = read_csv(prefix + "_schedule.csv");
  return rows.empty() ? std::map<std::string, std::string>{} : rows.front();
}

// The spec's own table ("2000 jobs, 400 nodes"; docs/semantics.md#dr_evt-2000-jobs-on-400-nodes):
// DR_EVT's trace in limit mode gives makespans of 909,621 s (EASY, 95.20 % utilization) and 993,969
// s (CONSERVATIVE, 87.13
// %).
TEST(SpecTable, DrEvtMakespansToTheSecond) {
  const std::string dir = cli_testing::output_dir();
  const struct {
    const char* policy;
    const char* makespan;
    double utilization;  // the spec's percentages, given to two decimals
  } expected[] = {{"easy", "909621.000000", 0.9520}, {"conservative", "993969.000000", 0.8713}};
  for (const auto& row : expected) {
    const std::string prefix = dir + "/" + row.policy;
    const cli_testing::CommandResult result =
        run("simulate " BATFILL_SOURCE_DIR
            "/workloads/drevt-huge_2000jobs.csv --nodes 400 --no-progress --backfill " +
            std::string(row.policy) + " --output " + prefix);
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const auto schedule = schedule_row(prefix);
    EXPECT_EQ(schedule.at("makespan"), row.makespan) << row.policy;
    EXPECT_NEAR(std::stod(schedule.at("utilization")), row.utilization, 0.00005) << row.policy;
    EXPECT_EQ(schedule.at("nb_jobs"), "2000");
    EXPECT_EQ(schedule.at("nb_jobs_rejected"), "0");
    cli_testing::expect_valid_schedule(prefix + "_jobs.csv",
                                       "--nodes 400 --workload " BATFILL_SOURCE_DIR
                                       "/workloads/drevt-huge_2000jobs.csv");
  }
}

// Batsim 4's _jobs.csv columns in Batsim's order (docs/semantics.md#prefix_jobscsv), every row
// complete, allocations canonical with exactly the requested number of machines, and no machine
// used by two jobs at once.
TEST(Outputs, JobsCsvHasBatsimColumnsAndConsistentRows) {
  const std::string prefix = cli_testing::output_dir() + "/out";
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR
          "/workloads/lublin_256.swf --no-progress --backfill conservative --output " +
          prefix);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::vector<std::string> lines = cli_testing::read_lines(prefix + "_jobs.csv");
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front(),
            "job_id,workload_name,profile,submission_time,requested_number_of_resources,"
            "requested_time,success,final_state,starting_time,execution_time,finish_time,"
            "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata");
  cli_testing::expect_valid_schedule(prefix + "_jobs.csv",
                                     "--workload " BATFILL_SOURCE_DIR "/workloads/lublin_256.swf");
  const std::vector<cli_testing::CsvRow> rows = read_csv(prefix + "_jobs.csv");
  EXPECT_EQ(rows.size(), 10000u);  // every record of the trace, executed or rejected
  std::multimap<double, std::pair<double, MachineSet>> busy;  // start -> (finish, machines)
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("#fields"), "17");
    EXPECT_EQ(row.at("workload_name"), "w0");
    if (row.at("final_state") == "REJECTED") continue;
    const MachineSet machines = parse_machine_set(row.at("allocated_resources"));
    EXPECT_EQ(to_string(machines), row.at("allocated_resources")) << "not canonical";
    EXPECT_EQ(machine_count(machines), std::stoi(row.at("requested_number_of_resources")));
    EXPECT_EQ(row.at("starting_time").find('.') + 7, row.at("starting_time").size());
    busy.emplace(std::stod(row.at("starting_time")),
                 std::make_pair(std::stod(row.at("finish_time")), machines));
  }
  // Sweep in start order: a job's machines must be free of every job still running then.
  std::multimap<double, MachineSet> running;  // finish -> machines
  MachineSet in_use;
  for (const auto& [start, job] : busy) {
    while (!running.empty() && running.begin()->first <= start) {
      in_use -= running.begin()->second;
      running.erase(running.begin());
    }
    EXPECT_FALSE(boost::icl::intersects(in_use, job.second)) << "machine used twice at " << start;
    in_use += job.second;
    running.emplace(job.first, job.second);
  }
}

// The embedded simulator (SimGrid, protocol messages, batfill's scheduler behind the Batsim
// adapter) must start every job exactly when the test-only instant replay of the core does: two
// independent drivers of the same rules.
TEST(CrossCheck, SimulatorMatchesIndependentReplayOnLublin) {
  const std::string dir = cli_testing::output_dir();
  // lublin_256.swf has no requested times: the simulator uses the runtime (docs/semantics.md#swf).
  std::vector<testing::TraceJob> trace;
  for (const std::string& line :
       cli_testing::read_lines(BATFILL_SOURCE_DIR "/workloads/lublin_256.swf")) {
    if (line.empty() || line[0] == ';') continue;
    std::istringstream fields(line);
    std::vector<double> f;
    double value;
    while (fields >> value) f.push_back(value);
    testing::TraceJob t;
    t.job.id = "w0!" + std::to_string(static_cast<long long>(f[0]));
    t.job.submit_time = from_fractional_seconds(f[1]);
    t.runtime = from_fractional_seconds(f[3]);
    t.job.nodes = static_cast<int>(f[7] > 0 ? f[7] : f[4]);
    t.job.time_limit = f[8] > 0 ? from_fractional_seconds(f[8]) : t.runtime;
    trace.push_back(t);
  }
  for (const char* policy : {"none", "easy", "conservative"}) {
    const std::string prefix = dir + "/" + policy;
    const cli_testing::CommandResult result =
        run("simulate " BATFILL_SOURCE_DIR "/workloads/lublin_256.swf --no-progress --backfill " +
            std::string(policy) + " --output " + prefix);
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const testing::ReplayResult replay = testing::replay(trace, 256, policy);
    std::size_t compared = 0;
    for (const auto& row : read_csv(prefix + "_jobs.csv")) {
      const std::string id = "w0!" + row.at("job_id");
      if (row.at("final_state") == "REJECTED") {
        EXPECT_EQ(replay.rejected.count(id), 1u) << policy << " " << id;
        continue;
      }
      ASSERT_EQ(replay.start.count(id), 1u) << policy << " " << id;
      EXPECT_EQ(row.at("starting_time"), format_seconds(replay.start.at(id)))
          << policy << " " << id;
      EXPECT_EQ(row.at("allocated_resources"), to_string(replay.machines.at(id))) << policy;
      ++compared;
    }
    EXPECT_EQ(compared, replay.start.size()) << policy;
  }
}

// Batsim's --sched-cfg reaches batfill through SIMULATION_BEGINS and overrides the command line
// (README): conservative's makespan from the spec's table, and the summary names the policy used.
TEST(SchedConfig, OverridesTheCommandLinePolicy) {
  const std::string prefix = cli_testing::output_dir() + "/out";
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR
          "/workloads/drevt-huge_2000jobs.csv --nodes 400 --no-progress --backfill easy "
          "--sched-cfg '{\"backfill\":\"conservative\"}' --output " +
          prefix);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(schedule_row(prefix).at("makespan"), "993969.000000");
  EXPECT_NE(result.output.find("batfill conservative,"), std::string::npos) << result.output;
}

// --batching per-event (pyss's event handling) against the spec's instant batching, on a case
// derived by hand for easy-classic. 10 nodes; jobs 1 and 2 (3 nodes, limit 200) end early at 100,
// job 3 (3 nodes) runs to 300, job 4 (7 nodes) arrives at 1, job 5 (4 nodes, limit 100) at 2.
//  instant:   at 100 both completions free 7 nodes: job 4 starts at 100, job 5 then waits for it
//             (no room before 200) and starts at 200.
//  per-event: at 100 job 1's completion comes alone (it started first): 4 nodes free, job 4
//             blocked with its shadow at 200 (job 2's planned end); job 5 fits and ends at
//             100 + 100 = 200 <= 200, so easy-classic backfills it at 100; job 4 starts at 200.
TEST(Batching, PerEventFollowsPyssOrder) {
  const std::string dir = cli_testing::output_dir();
  {
    std::ofstream swf(dir + "/case.swf");
    swf << "; MaxProcs: 10\n"
           "1 0 -1 100 3 -1 -1 3 200 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
           "2 0 -1 100 3 -1 -1 3 200 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
           "3 0 -1 300 3 -1 -1 3 300 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
           "4 1 -1 100 7 -1 -1 7 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
           "5 2 -1 100 4 -1 -1 4 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
  }
  const std::map<std::string, std::pair<const char*, const char*>> expected = {
      {"instant", {"100.000000", "200.000000"}}, {"per-event", {"200.000000", "100.000000"}}};
  for (const auto& [batching, starts] : expected) {
    const std::string prefix = dir + "/" + batching;
    const cli_testing::CommandResult result =
        run("simulate " + dir + "/case.swf --backfill easy-classic --no-progress --batching " +
            batching + " --output " + prefix);
    ASSERT_EQ(result.exit_code, 0) << result.output;
    std::map<std::string, std::string> start;
    for (const auto& row : read_csv(prefix + "_jobs.csv"))
      start[row.at("job_id")] = row.at("starting_time");
    EXPECT_EQ(start.at("4"), starts.first) << batching;
    EXPECT_EQ(start.at("5"), starts.second) << batching;
  }
}

TEST(BadInput, MissingWorkloadFileIsNamed) {
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR "/workloads/no-such-file.swf --nodes 4 --output " +
          cli_testing::output_dir() + "/x");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("no-such-file.swf"), std::string::npos) << result.output;
}

TEST(BadInput, UnknownPolicyListsTheValidOnes) {
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR "/workloads/lublin_256.swf --backfill fastest --output " +
          cli_testing::output_dir() + "/x");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("fastest"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("conservative"), std::string::npos) << result.output;
}

TEST(BadInput, NoMachineSizeIsExplained) {
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR "/workloads/drevt-huge_2000jobs.csv --output " +
          cli_testing::output_dir() + "/x");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("--nodes"), std::string::npos) << result.output;
}

// Like Batsim's export prefix, an output prefix inside missing directories creates them.
TEST(Simulate, CreatesTheOutputDirectory) {
  const std::string prefix = cli_testing::output_dir() + "/not/yet/there/run";
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR "/workloads/tiny.swf --no-progress --output " + prefix);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_FALSE(cli_testing::read_file(prefix + "_jobs.csv").empty());
  EXPECT_FALSE(cli_testing::read_file(prefix + "_schedule.csv").empty());
}

}  // namespace
}  // namespace batfill
