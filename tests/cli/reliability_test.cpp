// What batfill does when a run goes wrong around it (docs/reliability.md): a signal, a full
// disk, a foreign EDC library that crashes, a platform SimGrid would abort on, an option given
// without the one it needs, a check that cannot see missing jobs.

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_support.hpp"

namespace batfill {
namespace {

namespace fs = std::filesystem;
using cli_testing::run;

const std::string kTiny = BATFILL_SOURCE_DIR "/workloads/tiny_batsim.json";
const std::string kKth = BATFILL_SOURCE_DIR "/workloads/KTH-SP2-1996-2.1-cln.swf.gz";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// `batfill ARGUMENTS` started in the background, its stdout and stderr going to `log`.
pid_t start(const std::vector<std::string>& arguments, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    std::vector<char*> argv = {const_cast<char*>(BATFILL_BINARY)};
    for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    execv(BATFILL_BINARY, argv.data());
    _exit(127);
  }
  return pid;
}

bool wait_for_file(const std::string& path) {
  for (int tries = 0; tries < 1200; ++tries) {
    if (fs::exists(path)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// SIGINT or SIGTERM mid-run: batfill says where it stopped, exits 128 + the signal, and writes
// no file of the run; the earlier run's files under the prefix stay as they were. The EDC stalls
// 20 ms per message, so the run (KTH's 28,476 jobs) is still going when the signal comes.
TEST(Interruption, SignalStopsTheRunSayingWhereAndLeavesNoPartialOutput) {
  for (const int signal : {SIGINT, SIGTERM}) {
    const std::string dir = cli_testing::output_dir() + "/" + std::to_string(signal);
    fs::create_directories(dir);
    std::ofstream(dir + "/run_jobs.csv") << "earlier run\n";
    std::ofstream(dir + "/run_schedule.csv") << "earlier run\n";
    const std::string marker = dir + "/running";
    const pid_t pid = start({"simulate", kKth, "--no-progress", "--output", dir + "/run",
                             "--scheduler-library", BATFILL_MISBEHAVING_EDC, "--scheduler-init",
                             "slow:" + marker},
                            dir + "/log");
    ASSERT_TRUE(wait_for_file(marker));
    kill(pid, signal);
    int status = 0;
    waitpid(pid, &status, 0);
    const std::string log = cli_testing::read_file(dir + "/log");
    ASSERT_TRUE(WIFEXITED(status)) << log;
    EXPECT_EQ(WEXITSTATUS(status), 128 + signal) << log;
    EXPECT_TRUE(contains(log, std::string("interrupted by ") +
                                  (signal == SIGINT ? "SIGINT" : "SIGTERM") +
                                  " at simulated time "))
        << log;
    EXPECT_TRUE(contains(log, " of 28476 jobs ended; no output written")) << log;
    EXPECT_EQ(files_in(dir), (std::vector<std::string>{"log", "run_jobs.csv", "run_schedule.csv",
                                                       "running"}));
    EXPECT_EQ(cli_testing::read_file(dir + "/run_schedule.csv"), "earlier run\n");
  }
}

// A full disk (/dev/full behind the name batfill writes): an error naming the file, and no file
// of the run stays, neither the jobs nor the schedule.
TEST(FullDisk, NoFileOfTheRunStays) {
  for (const std::string file : {"_jobs.csv", "_schedule.csv"}) {
    const std::string dir = cli_testing::output_dir();
    fs::create_symlink("/dev/full", dir + "/run" + file + ".partial");
    const cli_testing::CommandResult result =
        run("simulate " + kTiny + " --no-progress --output " + dir + "/run");
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_TRUE(contains(result.output, "error while writing output file '" + dir + "/run" +
                                            file + ".partial': No space left on device"))
        << result.output;
    EXPECT_TRUE(files_in(dir).empty()) << result.output;
  }
}

// A run that writes no _resizes.csv under a prefix where an earlier run wrote one removes it:
// the files under a prefix are always those of one run.
TEST(Outputs, NoFilesOfTwoRunsSideBySide) {
  const std::string dir = cli_testing::output_dir();
  const std::string prefix = dir + "/run";
  std::ofstream(prefix + "_resizes.csv") << "job_id,request_time,nodes\n";
  std::ofstream(prefix + "_schedule.csv") << "earlier run\n";
  const cli_testing::CommandResult result =
      run("simulate " + kTiny + " --no-progress --output " + prefix);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(files_in(dir), (std::vector<std::string>{"run_jobs.csv", "run_schedule.csv"}));
  EXPECT_NE(cli_testing::read_file(prefix + "_schedule.csv"), "earlier run\n");
}

// A foreign EDC library that segfaults: batfill's last words name the library, the call and the
// message it was given, and the process dies of the signal.
TEST(ForeignCrash, LastWordsNameTheLibraryTheCallAndTheMessage) {
  const std::string dir = cli_testing::output_dir();
  const cli_testing::CommandResult result =
      run("simulate " + kTiny + " --no-progress --output " + dir +
          "/run --scheduler-library " BATFILL_MISBEHAVING_EDC " --scheduler-init crash@1");
  EXPECT_NE(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result.output,
                       "batfill: fatal signal SIGSEGV (invalid memory access) inside "
                       "batsim_edc_take_decisions of EDC library '" BATFILL_MISBEHAVING_EDC
                       "', given message #1: the library crashed, batfill did not\n"))
      << result.output;
}

// The smallest platform of Batsim 5's examples that SimGrid aborts on, refused at load with the
// file and the two hosts; before, a parallel job spanning both zones aborted the process.
TEST(PlatformCheck, ZonesWithoutARouteAreRefusedAtLoad) {
  const std::string dir = cli_testing::output_dir();
  const std::string platform = BATFILL_SOURCE_DIR "/tests/cli/data/platforms/zones_without_route.xml";
  std::ofstream(dir + "/ptask.json")
      << R"({"nb_res": 2, "jobs": [{"id": "1", "subtime": 0, "walltime": 100, "res": 2,)"
      << R"( "profile": "p"}], "profiles": {"p": {"type": "parallel_homogeneous", "cpu": 1e9,)"
      << R"( "com": 1e6}}})";
  const cli_testing::CommandResult result = run("simulate " + dir + "/ptask.json --platform " +
                                                platform + " --no-progress --output " + dir + "/run");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_EQ(result.output, "batfill simulate: error: platform '" + platform +
                               "' has no usable route from host 'host_0' to host 'host_1', which "
                               "SimGrid would abort on: Bad gateways for route from 'host_0' to "
                               "'host_1'.\n");
  EXPECT_FALSE(fs::exists(dir + "/run_jobs.csv"));
}

// Each option that only means something beside another is refused without it (or with one that
// makes it meaningless), naming both; before, each was silently ignored.
TEST(OptionRules, EachDependentOptionIsRefusedAlone) {
  const std::string base = "simulate " + kTiny + " --no-progress --output " +
                           cli_testing::output_dir() + "/run ";
  const std::string library = " --scheduler-library " BATFILL_EDC_LIBRARY;
  const std::string external = " --scheduler ipc:///nonexistent";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--scheduler-init garbage", "--scheduler-init needs --scheduler-library"},
      {"--timeout 5", "--timeout needs --scheduler"},
      {"--sched-cfg {}" + library, "--sched-cfg means nothing with --scheduler-library"},
      {external + library, "--scheduler means nothing with --scheduler-library"},
      {"--resize x.csv" + external, "--resize means nothing with --scheduler"},
      {"--backfill none" + library, "--backfill means nothing with --scheduler-library"},
      {"--order lcfs" + external, "--order means nothing with --scheduler"},
      {"--predictor tsafrir" + external, "--predictor means nothing with --scheduler"},
      {"--batching per-event" + external, "--batching means nothing with --scheduler"},
      {"--verbosity debug" + library, "--verbosity means nothing with --scheduler-library"},
      {"--variant_options {}" + external, "--variant_options means nothing with --scheduler"},
      {"-v easy_bf" + library, "--variant means nothing with --scheduler-library"},
  };
  for (const auto& [options, message] : cases) {
    const cli_testing::CommandResult result = run(base + options);
    EXPECT_EQ(result.exit_code, 1) << options << ": " << result.output;
    EXPECT_TRUE(contains(result.output, message)) << options << ": " << result.output;
  }
  const cli_testing::CommandResult check =
      run("check " + kTiny + " --nodes 4 --platform " BATFILL_SOURCE_DIR "/platforms/cluster16.xml");
  EXPECT_EQ(check.exit_code, 1) << check.output;
  EXPECT_TRUE(contains(check.output, "--nodes means nothing with --platform")) << check.output;
}

// Without --workload, `check` cannot see that jobs are missing (the file of an interrupted run
// looks whole): it says so.
TEST(CheckCommand, WarnsThatWithoutTheWorkloadMissingJobsGoUnnoticed) {
  const std::string dir = cli_testing::output_dir();
  ASSERT_EQ(run("simulate " + kTiny + " --no-progress --output " + dir + "/run").exit_code, 0);
  const cli_testing::CommandResult alone = run("check " + dir + "/run_jobs.csv");
  EXPECT_EQ(alone.exit_code, 0) << alone.output;
  EXPECT_TRUE(contains(alone.output, "warning: without --workload, jobs missing from")) << alone.output;
  const cli_testing::CommandResult with = run("check " + dir + "/run_jobs.csv --workload " + kTiny);
  EXPECT_FALSE(contains(with.output, "warning")) << with.output;
}

// `--load-factor 1e-300` stretches the trace beyond batfill's time range; the message gives the
// factor as given, not rounded to "0.000000".
TEST(Wording, TinyLoadFactorIsShownAsGiven) {
  const cli_testing::CommandResult result =
      run("simulate " + kTiny + " --load-factor 1e-300 --no-progress --output " +
          cli_testing::output_dir() + "/run");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_TRUE(contains(result.output, "load factor 1e-300 submits job")) << result.output;
}

// `--predictor-options '{"eta":1e400}'` is JSON with a number no double holds: the message says
// so, where, rather than "must be a JSON object".
TEST(Wording, PredictorOptionsNumberTooBigIsNamed) {
  const cli_testing::CommandResult result =
      run("simulate " + kTiny + " --predictor sgd --predictor-options '{\"eta\":1e400}' "
          "--no-progress --output " + cli_testing::output_dir() + "/run");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_TRUE(contains(result.output, "not JSON at byte 7 (Number too big to be stored in double.)"))
      << result.output;
}

// One job, one violation: singular nouns.
TEST(Wording, CountsOfOneAreSingular) {
  const std::string dir = cli_testing::output_dir();
  std::ofstream(dir + "/one.json")
      << R"({"nb_res": 1, "jobs": [{"id": "1", "subtime": 0, "walltime": 100, "res": 1,)"
      << R"( "profile": "p"}], "profiles": {"p": {"type": "delay", "delay": 10}}})";
  ASSERT_EQ(run("simulate " + dir + "/one.json --no-progress --output " + dir + "/run").exit_code, 0);
  const cli_testing::CommandResult check =
      run("check " + dir + "/run_jobs.csv --workload " + dir + "/one.json");
  EXPECT_EQ(check.output, dir + "/run_jobs.csv: 1 job, 0 violations\n");
}

// A UTF-8 byte-order mark before the header, as spreadsheets write it, is read as such, not as
// part of the first column's name.
TEST(CheckCommand, ReadsAJobsFileWithAByteOrderMark) {
  const std::string dir = cli_testing::output_dir();
  ASSERT_EQ(run("simulate " + kTiny + " --no-progress --output " + dir + "/run").exit_code, 0);
  std::ofstream(dir + "/bom_jobs.csv") << "\xEF\xBB\xBF" << cli_testing::read_file(dir + "/run_jobs.csv");
  const cli_testing::CommandResult check = run("check " + dir + "/bom_jobs.csv --workload " + kTiny);
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_EQ(check.output, dir + "/bom_jobs.csv: 4 jobs, 0 violations\n");
}

}  // namespace
}  // namespace batfill
