// Batsim 4.2.1's own test instances as the stand-in's oracle (label `batsim`): each instance of
// its test/test_simple.py, test_walltime.py, test_submitorder.py, test_kill.py,
// test_dynsubmit.py, test_set_job_metadata.py and test_externalevents.py whose inputs the
// stand-in runs (docs/protocol.md#batsims-own-tests-as-the-stand-ins-oracle lists those left
// out and why) runs the same batsched command once under real Batsim 4.2.1 and once under
// `simulate --scheduler`. Both _jobs.csv files must agree on every job: final state, start and
// finish within 0.05 s (Batsim's message latencies add a few tens of microseconds per decision
// on these platforms, about 2 ms per decision with links), allocation and metadata.

#include "batsim_support.hpp"

#include <cctype>

namespace batfill {
namespace {

using batsim_testing::Process;
using cli_testing::CsvRow;
using cli_testing::read_csv;
using namespace std::chrono_literals;

const std::string kSuite = BATFILL_SOURCE_DIR "/tests/batsim/data/suite/";
const std::string kEnergy = BATFILL_SOURCE_DIR "/tests/batsim/data/energy/";

// One run of Batsim's test suite: the batsched variant and its options file's content, Batsim's
// flags and the stand-in's flags of the same meaning.
struct Instance {
  std::string name;
  std::string platform;
  std::string workload;
  std::string algorithm;
  std::string variant_options;  // JSON, "" for none
  std::string batsim_flags;
  std::string simulate_flags;
};

std::ostream& operator<<(std::ostream& out, const Instance& instance) {
  return out << instance.name;
}

std::string batsched_command(const std::string& batsched, const Instance& instance,
                             const std::string& dir, int port) {
  std::string command = batsched + " -v " + instance.algorithm;
  if (!instance.variant_options.empty()) {
    const std::string path = dir + "/variant_options.json";
    std::ofstream(path) << instance.variant_options << "\n";
    command += " --variant_options_filepath " + path;
  }
  return command + " -s tcp://127.0.0.1:" + std::to_string(port);
}

struct SuiteRun {
  int status = -1;
  std::string log;
  std::vector<CsvRow> jobs;
};

SuiteRun real_batsim(const std::string& batsim, const std::string& batsched,
                     const Instance& instance, const std::string& dir) {
  const int port = batsim_testing::next_port();
  Process scheduler(batsched_command(batsched, instance, dir, port), dir + "/real_batsched.log");
  Process sim(batsim + " -q -p " + instance.platform + " -w " + instance.workload + " -e " + dir +
                  "/real " + instance.batsim_flags + " -s tcp://127.0.0.1:" + std::to_string(port),
              dir + "/real_batsim.log");
  SuiteRun run;
  run.status = sim.wait(120s);
  if (run.status != 0) scheduler.kill_now();
  scheduler.wait(30s);
  run.log = sim.log() + scheduler.log();
  run.jobs = read_csv(dir + "/real_jobs.csv");
  return run;
}

SuiteRun stand_in(const std::string& batsched, const Instance& instance, const std::string& dir) {
  const int port = batsim_testing::next_port();
  Process scheduler(batsched_command(batsched, instance, dir, port), dir + "/ours_batsched.log");
  const cli_testing::CommandResult result = cli_testing::run(
      "simulate " + instance.workload + " --platform " + instance.platform +
      " --no-progress --timeout 60 --scheduler tcp://127.0.0.1:" + std::to_string(port) +
      " --output " + dir + "/ours " + instance.simulate_flags);
  if (result.exit_code != 0) scheduler.kill_now();
  scheduler.wait(30s);
  SuiteRun run;
  run.status = result.exit_code;
  run.log = result.output + scheduler.log();
  run.jobs = read_csv(dir + "/ours_jobs.csv");
  return run;
}

std::map<std::string, CsvRow> by_job(const std::vector<CsvRow>& rows) {
  std::map<std::string, CsvRow> jobs;
  for (const CsvRow& row : rows) jobs[row.at("workload_name") + "!" + row.at("job_id")] = row;
  return jobs;
}

void expect_same_time(const CsvRow& real, const CsvRow& ours, const std::string& column,
                      const std::string& job) {
  ASSERT_EQ(real.at(column).empty(), ours.at(column).empty()) << job << " " << column;
  if (real.at(column).empty()) return;
  EXPECT_NEAR(std::stod(ours.at(column)), std::stod(real.at(column)), 0.05) << job << " " << column;
}

void expect_same_jobs(const SuiteRun& real, const SuiteRun& ours) {
  ASSERT_EQ(real.status, 0) << batsim_testing::tail(real.log);
  ASSERT_EQ(ours.status, 0) << batsim_testing::tail(ours.log);
  const auto real_jobs = by_job(real.jobs);
  const auto our_jobs = by_job(ours.jobs);
  ASSERT_FALSE(real_jobs.empty());
  ASSERT_EQ(our_jobs.size(), real_jobs.size());
  for (const auto& [job, row] : real_jobs) {
    const auto ours_row = our_jobs.find(job);
    ASSERT_NE(ours_row, our_jobs.end()) << job;
    EXPECT_EQ(ours_row->second.at("final_state"), row.at("final_state")) << job;
    expect_same_time(row, ours_row->second, "starting_time", job);
    expect_same_time(row, ours_row->second, "finish_time", job);
    EXPECT_EQ(ours_row->second.at("allocated_resources"), row.at("allocated_resources")) << job;
    EXPECT_EQ(ours_row->second.at("metadata"), row.at("metadata")) << job;
  }
}

class BatsimTestSuite : public ::testing::TestWithParam<Instance> {};

TEST_P(BatsimTestSuite, StandInAgreesWithBatsim) {
  BATFILL_REQUIRE_PROGRAM("BATSIM", batsim);
  BATFILL_REQUIRE_PROGRAM("BATSCHED", batsched);
  const Instance& instance = GetParam();
  const std::string dir = cli_testing::output_dir();
  const SuiteRun real = real_batsim(batsim, batsched, instance, dir);
  const SuiteRun ours = stand_in(batsched, instance, dir);
  expect_same_jobs(real, ours);
}

std::string test_name(const ::testing::TestParamInfo<Instance>& info) {
  std::string name = info.param.name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// The inputs, named as test/conftest.py names them.
struct Input {
  std::string name;
  std::string path;
};
const Input kSmall{"small", kSuite + "small_platform.xml"};
const Input kCluster512{"cluster512", kSuite + "cluster512.xml"};
const Input kEnergy128NoTopo{"energy128notopo",
                             kEnergy + "energy_platform_homogeneous_no_net_128.xml"};
const Input kEnergy128Cluster{"energy128cluster", kEnergy + "cluster_energy_128.xml"};
const Input kDelays{"delays", kEnergy + "test_delays.json"};
const Input kDelay1{"delay1", kSuite + "test_one_delay_job.json"};
const Input kCompute1{"compute1", kSuite + "test_one_computation_job.json"};
// conftest.py's basic_algorithms, by their batsched names.
const std::vector<std::pair<std::string, std::string>> kBasicAlgorithms = {
    {"fcfs", "fcfs_fast"}, {"easyfast", "easy_bf_fast"}, {"filler", "filler"}};

Instance plain(const std::string& test, const Input& platform, const Input& workload,
               const std::string& algorithm_name, const std::string& algorithm) {
  return {test + "-" + algorithm_name + "-" + platform.name + "-" + workload.name,
          platform.path,
          workload.path,
          algorithm,
          "",
          "",
          ""};
}

// test_simple.py: basic1 on the small platform, basic2 on every platform; test_walltime.py and
// test_submitorder.py run fcfs.
std::vector<Instance> simple_walltime_submitorder() {
  std::vector<Instance> instances;
  for (const auto& [name, algorithm] : kBasicAlgorithms) {
    instances.push_back(plain("basic1", kSmall, kDelays, name, algorithm));
    for (const Input& platform : {kSmall, kCluster512, kEnergy128NoTopo, kEnergy128Cluster}) {
      for (const Input& workload : {kDelay1, kCompute1}) {
        instances.push_back(plain("basic2", platform, workload, name, algorithm));
      }
    }
  }
  // walltime2 (test_walltime.json) and submitorder2 (test_same_submit_time.json) are left
  // out: jobs end at the very instant others end or are submitted, and Batsim's latencies
  // order those ends and submissions across messages, so batsched allocates other machines
  // (docs/protocol.md#batsims-own-tests-as-the-stand-ins-oracle).
  instances.push_back(plain("walltime1", kCluster512, kDelays, "fcfs", "fcfs_fast"));
  instances.push_back(plain("submitorder1", kSmall, kDelays, "fcfs", "fcfs_fast"));
  return instances;
}

// test_kill.py: killer after 0, 5, 10 or 15 s, once or twice per job, on the small delay
// workload; killer2 (a kill on each new submission); the progress instances on one-job
// workloads. Batsim's --forward-profiles-on-submission: the stand-in forwards delay profiles
// always.
std::vector<Instance> kills() {
  std::vector<Instance> instances;
  const auto killer = [](int delay, int kills, const Input& workload) {
    return Instance{"kill-after" + std::to_string(delay) + "-" + std::to_string(kills) +
                        "kills-killer-small-" + workload.name,
                    kSmall.path,
                    workload.path,
                    "killer",
                    R"({"delay_before_kill":)" + std::to_string(delay) + R"(,"nb_kills_per_job":)" +
                        std::to_string(kills) + "}",
                    "--forward-profiles-on-submission",
                    ""};
  };
  for (const int delay : {0, 5, 10, 15}) {
    for (const int kills : {1, 2}) instances.push_back(killer(delay, kills, kDelays));
  }
  instances.push_back({"kill-onnewsubmit-killer2-small-delays", kSmall.path, kDelays.path,
                       "killer2", "", "--forward-profiles-on-submission", ""});
  for (const Input& workload : {kDelay1, kCompute1}) {
    Instance progress = killer(5, 1, workload);
    progress.name = "kill-progress-" + progress.name;
    instances.push_back(progress);
  }
  return instances;
}

// test_dynsubmit.py: batsched's submitter on the one-job workload, with and without
// acknowledgement, submitting 0, 1 or 10 jobs, in its two submission modes. Left out: 10 jobs
// without acknowledgement in the mode with growing durations, where a dynamic job starts at
// the very instant the static job ends, which Batsim's latencies order either way from run to
// run (docs/protocol.md#batsims-own-tests-as-the-stand-ins-oracle).
std::vector<Instance> dynamic_submissions() {
  std::vector<Instance> instances;
  for (const bool ack : {true, false}) {
    for (const int jobs : {0, 1, 10}) {
      for (const bool reuse : {false, true}) {
        if (!ack && jobs == 10 && !reuse) continue;
        std::string flags = "--enable-dynamic-jobs";
        if (ack) flags += " --acknowledge-dynamic-jobs";
        if (reuse) flags += " --enable-profile-reuse";
        const std::string options = R"({"nb_jobs_to_submit":)" + std::to_string(jobs) +
                                    R"(,"increase_jobs_duration":)" + (reuse ? "false" : "true") +
                                    R"(,"send_profile_if_already_sent":)" +
                                    (reuse ? "false" : "true") +
                                    R"(,"send_profiles_in_separate_event":true,"reuse_profiles":)" +
                                    (reuse ? "true" : "false") + "}";
        instances.push_back(
            {std::string("dynsubmit-delay1-") +
                 (reuse ? "same-profiles-noresend-separatep" : "diff-profiles-separatep") +
                 (ack ? "-ack-" : "-noack-") + std::to_string(jobs) + "jobs",
             kSmall.path, kDelay1.path, "submitter", options, flags, flags});
      }
    }
  }
  return instances;
}

// test_set_job_metadata.py: filler and submitter setting metadata or not on the small delay
// workload (the submitter with dynamic jobs, as the test starts Batsim).
std::vector<Instance> metadata() {
  std::vector<Instance> instances;
  for (const std::string algorithm : {"filler", "submitter"}) {
    for (const bool set : {true, false}) {
      const std::string flags = algorithm == "submitter" ? "--enable-dynamic-jobs" : "";
      instances.push_back(
          {std::string(set ? "set" : "do-not-set") + "-job-metadata-" + algorithm + "-small-delays",
           kSmall.path, kDelays.path, algorithm,
           std::string(R"({"set_job_metadata":)") + (set ? "true" : "false") + "}", flags, flags});
    }
  }
  return instances;
}

// test_externalevents.py's batsched instance runs filler on the mixed workload, whose
// profile types the stand-in lacks; the same events beside the small delay workload check
// the same machine events (docs/protocol.md#batsims-own-tests-as-the-stand-ins-oracle).
std::vector<Instance> external_events() {
  const std::string events = "--events " + kSuite + "test_events_4hosts.txt";
  return {{"external-events-filler-small-delays-simple", kSmall.path, kDelays.path, "filler", "",
           events, events}};
}

INSTANTIATE_TEST_SUITE_P(SimpleWalltimeSubmitOrder, BatsimTestSuite,
                         ::testing::ValuesIn(simple_walltime_submitorder()), test_name);
INSTANTIATE_TEST_SUITE_P(Kill, BatsimTestSuite, ::testing::ValuesIn(kills()), test_name);
INSTANTIATE_TEST_SUITE_P(DynSubmit, BatsimTestSuite, ::testing::ValuesIn(dynamic_submissions()),
                         test_name);
INSTANTIATE_TEST_SUITE_P(SetJobMetadata, BatsimTestSuite, ::testing::ValuesIn(metadata()),
                         test_name);
INSTANTIATE_TEST_SUITE_P(ExternalEvents, BatsimTestSuite, ::testing::ValuesIn(external_events()),
                         test_name);

}  // namespace
}  // namespace batfill
