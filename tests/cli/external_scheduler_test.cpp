// `batfill simulate --scheduler ENDPOINT` against `batfill serve`: the embedded simulator plays
// Batsim over ZeroMQ, batfill serve is the decision process. On the same input the external and
// in-process runs must write byte-identical _jobs.csv (every protocol path is then
// exercised without a real Batsim).

#include <unistd.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::run;

using cli_testing::ExternalRun;
using cli_testing::ipc_endpoint;
using cli_testing::run_external;

struct Scenario {
  const char* name;
  const char* workload_arguments;
  const char* policy;
  friend void PrintTo(const Scenario& s, std::ostream* os) { *os << s.name; }
};

class ExternalMatchesInProcess : public ::testing::TestWithParam<Scenario> {};

TEST_P(ExternalMatchesInProcess, IdenticalJobsCsv) {
  const Scenario& scenario = GetParam();
  const std::string dir = cli_testing::output_dir();
  // The policy is the scheduler's: given to serve, never to the stand-in beside it.
  const std::string common =
      std::string("simulate ") + scenario.workload_arguments + " --no-progress";
  const cli_testing::CommandResult in_process =
      run(common + " --backfill " + scenario.policy + " --output " + dir + "/in");
  ASSERT_EQ(in_process.exit_code, 0) << in_process.output;

  // ipc:// keeps parallel test runs from competing for TCP ports; socket paths are limited to
  // 107 characters, so the socket lives in /tmp rather than beside the outputs.
  const std::string endpoint = ipc_endpoint(scenario.name);
  const ExternalRun external = run_external(endpoint, std::string("--backfill ") + scenario.policy,
                                            common + " --output " + dir + "/ext", dir);
  ASSERT_EQ(external.simulate.exit_code, 0) << external.simulate.output << external.serve_log;
  EXPECT_EQ(external.serve_exit_code, 0) << external.serve_log;
  const std::string expected = cli_testing::read_file(dir + "/in_jobs.csv");
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(cli_testing::read_file(dir + "/ext_jobs.csv"), expected);
  cli_testing::expect_valid_schedule(dir + "/ext_jobs.csv");
}

INSTANTIATE_TEST_SUITE_P(
    BundledWorkloads, ExternalMatchesInProcess,
    ::testing::Values(
        Scenario{"tiny_swf_easy", BATFILL_SOURCE_DIR "/workloads/tiny.swf", "easy"},
        Scenario{"tiny_json_conservative", BATFILL_SOURCE_DIR "/workloads/tiny_batsim.json",
                 "conservative"},
        Scenario{"lublin_easy", BATFILL_SOURCE_DIR "/workloads/lublin_256.swf", "easy"},
        Scenario{"lublin_none", BATFILL_SOURCE_DIR "/workloads/lublin_256.swf", "none"},
        Scenario{"drevt_conservative",
                 BATFILL_SOURCE_DIR "/workloads/drevt-huge_2000jobs.csv --nodes 400",
                 "conservative"},
        Scenario{"drevt_easy_classic",
                 BATFILL_SOURCE_DIR "/workloads/drevt-huge_2000jobs.csv --nodes 400",
                 "easy-classic"},
        Scenario{"drevt_conservative_classic",
                 BATFILL_SOURCE_DIR "/workloads/drevt-huge_2000jobs.csv --nodes 400",
                 "conservative-classic"}),
    [](const ::testing::TestParamInfo<Scenario>& info) { return std::string(info.param.name); });

// Every policy with every queue order also runs through `batfill serve`, with the same
// schedule as in-process (the first 300 jobs of the DR_EVT trace keep each run short).
TEST(ExternalScheduler, EveryPolicyWithEveryOrderMatchesInProcess) {
  const std::string dir = cli_testing::output_dir();
  {
    const std::vector<std::string> lines =
        cli_testing::read_lines(BATFILL_SOURCE_DIR "/workloads/drevt-huge_2000jobs.csv");
    std::ofstream out(dir + "/w.csv");
    for (std::size_t i = 0; i < lines.size() && i <= 300; ++i) out << lines[i] << '\n';
  }
  for (const std::string& policy : cli_testing::kPolicies) {
    for (const std::string& order : cli_testing::kQueueOrders) {
      const std::string name = policy + "-" + order;
      const std::string options = std::string("--backfill ") + policy + " --order " + order;
      const std::string common = "simulate " + dir + "/w.csv --nodes 400 --no-progress ";
      ASSERT_EQ(run(common + options + " --output " + dir + "/in-" + name).exit_code, 0) << name;
      const std::string endpoint = ipc_endpoint("all");
      const ExternalRun external =
          run_external(endpoint, options, common + "--output " + dir + "/ext-" + name, dir);
      ASSERT_EQ(external.simulate.exit_code, 0) << name << external.simulate.output;
      EXPECT_EQ(external.serve_exit_code, 0) << name << external.serve_log;
      EXPECT_EQ(cli_testing::read_file(dir + "/ext-" + name + "_jobs.csv"),
                cli_testing::read_file(dir + "/in-" + name + "_jobs.csv"))
          << name;
      std::filesystem::remove(dir + "/serve.exit");
    }
  }
}

// Predictions and corrections through `batfill serve`
// (docs/semantics.md#predictions-correctors-and-backfill-order): the wake-ups (CALL_ME_LATER /
// REQUESTED_CALL), the user ids in JOB_SUBMITTED and the forwarded delay profiles give the same
// schedule as in-process, with either batching: per-event is applied by the scheduler
// (docs/semantics.md#event-batching---batching), so serve given --batching per-event sees what the
// in-process scheduler sees. The first 3000 jobs of KTH-SP2 have users, walltimes and
// under-predictions.
TEST(ExternalScheduler, PredictionsAndCorrectionsMatchInProcess) {
  const std::string dir = cli_testing::output_dir();
  const std::string input = dir + "/kth.swf";
  ASSERT_EQ(std::system(("zcat " BATFILL_SOURCE_DIR
                         "/workloads/KTH-SP2-1996-2.1-cln.swf.gz | head -3000 > " +
                         input)
                            .c_str()),
            0);
  const std::vector<std::string> variants = {
      "--backfill easy-classic --predictor tsafrir --corrector tsafrir --backfill-order sjbf",
      "--backfill easy-classic --predictor sgd --corrector reqtime",
      "--backfill conservative-classic --predictor tsafrir --corrector doubling",
      "--backfill easy --predictor clairvoyant",
      "--backfill easy-classic --predictor tsafrir --corrector tsafrir --backfill-order sjbf "
      "--batching per-event",
      "--backfill easy-classic --predictor sgd --corrector reqtime --backfill-order sjbf "
      "--batching per-event",
      "--backfill easy-classic --predictor clairvoyant --batching per-event",
      "--backfill conservative-classic --predictor tsafrir --corrector doubling --batching "
      "per-event"};
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const std::string name = "pred" + std::to_string(i);
    const std::string common = "simulate " + input + " --no-progress ";
    ASSERT_EQ(run(common + variants[i] + " --output " + dir + "/in-" + name).exit_code, 0)
        << variants[i];
    const std::string endpoint = ipc_endpoint("pred");
    const ExternalRun external =
        run_external(endpoint, variants[i], common + "--output " + dir + "/ext-" + name, dir);
    ASSERT_EQ(external.simulate.exit_code, 0) << variants[i] << external.simulate.output;
    EXPECT_EQ(external.serve_exit_code, 0) << variants[i] << external.serve_log;
    EXPECT_EQ(cli_testing::read_file(dir + "/ext-" + name + "_jobs.csv"),
              cli_testing::read_file(dir + "/in-" + name + "_jobs.csv"))
        << variants[i];
    std::filesystem::remove(dir + "/serve.exit");
  }
}

// Per-event batching chosen through Batsim's sched-config reaches serve started without it,
// and gives the in-process per-event schedule.
TEST(ExternalScheduler, PerEventBatchingThroughSchedConfig) {
  const std::string dir = cli_testing::output_dir();
  const std::string input = dir + "/kth.swf";
  ASSERT_EQ(std::system(("zcat " BATFILL_SOURCE_DIR
                         "/workloads/KTH-SP2-1996-2.1-cln.swf.gz | head -2000 > " +
                         input)
                            .c_str()),
            0);
  const std::string options = "--backfill easy-classic --predictor tsafrir --corrector tsafrir";
  const std::string common = "simulate " + input + " --no-progress ";
  ASSERT_EQ(run(common + options + " --batching per-event --output " + dir + "/in").exit_code, 0);
  ASSERT_EQ(run(common + options + " --output " + dir + "/instant").exit_code, 0);
  const ExternalRun external = run_external(
      ipc_endpoint("cfg"), options,
      common + "--sched-cfg '{\"batching\":\"per-event\"}' --output " + dir + "/ext", dir);
  ASSERT_EQ(external.simulate.exit_code, 0) << external.simulate.output;
  EXPECT_EQ(external.serve_exit_code, 0) << external.serve_log;
  EXPECT_NE(external.serve_log.find("sched-config sets batching = per-event"), std::string::npos)
      << external.serve_log;
  const std::string expected = cli_testing::read_file(dir + "/in_jobs.csv");
  EXPECT_EQ(cli_testing::read_file(dir + "/ext_jobs.csv"), expected);
  // The case is one where the batching matters.
  EXPECT_NE(cli_testing::read_file(dir + "/instant_jobs.csv"), expected);
}

// One run over TCP on the loopback, as a user would start it beside Batsim.
TEST(ExternalScheduler, WorksOverLoopbackTcp) {
  const std::string dir = cli_testing::output_dir();
  const int port = 29000 + static_cast<int>(getpid() % 2000);
  const ExternalRun external = run_external(
      "tcp://127.0.0.1:" + std::to_string(port), "-v easy_bf",
      "simulate " BATFILL_SOURCE_DIR "/workloads/tiny.swf --no-progress --output " + dir + "/ext",
      dir);
  ASSERT_EQ(external.simulate.exit_code, 0) << external.simulate.output << external.serve_log;
  EXPECT_EQ(external.serve_exit_code, 0) << external.serve_log;
  EXPECT_NE(external.serve_log.find("easy-classic"), std::string::npos) << external.serve_log;
}

// A scheduler that never answers: the simulator gives up with a message naming the endpoint
// instead of hanging.
TEST(ExternalScheduler, SilentSchedulerTimesOut) {
  const std::string dir = cli_testing::output_dir();
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR "/workloads/tiny.swf --no-progress --output " + dir +
          "/x --scheduler " + ipc_endpoint("nobody") + " --timeout 0.3");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("nobody"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace batfill
