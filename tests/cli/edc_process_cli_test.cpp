// `batfill simulate --scheduler ENDPOINT --protocol batsim5`: the stand-in plays Batsim 5 for a
// process EDC, with the handshake (docs/protocol.md#the-stand-in-driving-a-process-edc).
// Beside `batfill serve --protocol batsim5` every message crosses batprotocol JSON and a socket,
// so the run must write the same _jobs.csv, byte for byte, as batfill in-process with the same
// settings. A Python EDC written from the schema alone checks the stand-in against a peer that
// shares no code with batfill.

#include <gtest/gtest.h>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::ExternalRun;
using cli_testing::ipc_endpoint;
using cli_testing::read_file;
using cli_testing::run;

const std::string kLublin = BATFILL_SOURCE_DIR "/workloads/lublin_256.swf";

struct ProcessCase {
  const char* name;
  const char* serve_options;  // batfill serve's command line
  const char* init;           // the stand-in's --scheduler-init, over serve's options
  const char* in_process;     // the same settings for the in-process run
  friend void PrintTo(const ProcessCase& c, std::ostream* os) { *os << c.name; }
};

class ProcessEdc : public ::testing::TestWithParam<ProcessCase> {};

TEST_P(ProcessEdc, WritesTheSameScheduleAsInProcess) {
  const ProcessCase& c = GetParam();
  const std::string dir = cli_testing::output_dir();
  const auto in_process = run("simulate " + kLublin + " --no-progress " + c.in_process +
                              " --output " + dir + "/in");
  ASSERT_EQ(in_process.exit_code, 0) << in_process.output;
  const std::string endpoint = ipc_endpoint(std::string("edc-") + c.name);
  const ExternalRun external = cli_testing::run_external(
      endpoint, std::string("--protocol batsim5 ") + c.serve_options,
      "simulate " + kLublin + " --no-progress --protocol batsim5 --scheduler-init '" + c.init +
          "' --output " + dir + "/proc",
      dir);
  ASSERT_EQ(external.simulate.exit_code, 0) << external.simulate.output << external.serve_log;
  EXPECT_EQ(external.serve_exit_code, 0) << external.serve_log;
  EXPECT_NE(external.simulate.output.find("Batsim 5 EDC batfill"), std::string::npos)
      << external.simulate.output;
  const std::string expected = read_file(dir + "/in_jobs.csv");
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(read_file(dir + "/proc_jobs.csv"), expected);
}

// The policy given to serve, or carried to it by the init string of the handshake (which
// overrides serve's command line key by key); a corrector's CallMeLater in milliseconds.
INSTANTIATE_TEST_SUITE_P(
    Settings, ProcessEdc,
    ::testing::Values(
        ProcessCase{"serve_options", "--backfill conservative", "", "--backfill conservative"},
        ProcessCase{"init_string", "--backfill none", R"({"backfill":"easy-classic"})",
                    "--backfill easy-classic"},
        ProcessCase{"corrector", "",
                    R"({"backfill":"easy","predictor":"tsafrir","corrector":"tsafrir"})",
                    "--backfill easy --predictor tsafrir --corrector tsafrir"}),
    [](const ::testing::TestParamInfo<ProcessCase>& info) { return std::string(info.param.name); });

// A peer's scheduler: FCFS without backfilling on the lowest free hosts, in Python over
// python3-zmq. Its schedule is batfill's `--backfill none` (FCFS, lowest ids first) by the
// definition of both.
TEST(ProcessEdcPeer, PythonFcfsRunsToTheEndWithFcfsSchedule) {
  if (std::system(BATFILL_PYTHON " -c 'import zmq' 2>/dev/null") != 0) {
    GTEST_SKIP() << BATFILL_PYTHON << " has no zmq module (Debian: python3-zmq, installed by "
                 << "scripts/install-deps.sh)";
  }
  const std::string dir = cli_testing::output_dir();
  const auto fcfs =
      run("simulate " + kLublin + " --no-progress --backfill none --output " + dir + "/fcfs");
  ASSERT_EQ(fcfs.exit_code, 0) << fcfs.output;
  const std::string endpoint = ipc_endpoint("edc-python");
  const ExternalRun peer = cli_testing::run_beside_peer(
      std::string(BATFILL_PYTHON " " BATFILL_SOURCE_DIR "/tests/edc/fcfs_process_edc.py ") +
          endpoint,
      endpoint,
      "simulate " + kLublin + " --no-progress --protocol batsim5 --output " + dir + "/py", dir);
  ASSERT_EQ(peer.simulate.exit_code, 0) << peer.simulate.output << peer.serve_log;
  EXPECT_EQ(peer.serve_exit_code, 0) << peer.serve_log;
  EXPECT_NE(peer.simulate.output.find("Batsim 5 EDC python-fcfs 1.0"), std::string::npos)
      << peer.simulate.output;
  EXPECT_EQ(read_file(dir + "/py_jobs.csv"), read_file(dir + "/fcfs_jobs.csv"));
}

// The wrong protocol on either side stops both with the reason, never a hang.
TEST(ProcessEdcErrors, AProtocolMismatchIsNamed) {
  const std::string dir = cli_testing::output_dir();
  const std::string tiny = BATFILL_SOURCE_DIR "/workloads/tiny.swf --no-progress";
  const ExternalRun batsim4_serve = cli_testing::run_external(
      ipc_endpoint("edc-mismatch4"), "",
      "simulate " + tiny + " --protocol batsim5 --output " + dir + "/a", dir);
  EXPECT_EQ(batsim4_serve.simulate.exit_code, 1);
  EXPECT_NE(batsim4_serve.simulate.output.find(
                "refused the init message: batfill error: message #0 is Batsim 5's init message"),
            std::string::npos)
      << batsim4_serve.simulate.output;
  EXPECT_EQ(batsim4_serve.serve_exit_code, 1) << batsim4_serve.serve_log;
  std::filesystem::remove(dir + "/serve.exit");

  const ExternalRun batsim5_serve = cli_testing::run_external(
      ipc_endpoint("edc-mismatch5"), "--protocol batsim5",
      "simulate " + tiny + " --output " + dir + "/b", dir);
  EXPECT_EQ(batsim5_serve.simulate.exit_code, 1);
  EXPECT_NE(batsim5_serve.simulate.output.find("unexpected NOTIFY 'batfill error: the init "
                                               "message is a Batsim 4 message"),
            std::string::npos)
      << batsim5_serve.simulate.output;
  EXPECT_EQ(batsim5_serve.serve_exit_code, 1) << batsim5_serve.serve_log;
}

TEST(ProcessEdcErrors, OptionsThatDoNotFitAreRefused) {
  const std::string simulate = "simulate " BATFILL_SOURCE_DIR "/workloads/tiny.swf --no-progress ";
  const struct {
    std::string arguments;
    std::string error;
  } cases[] = {
      {"--protocol batsim5", "--protocol needs --scheduler"},
      {"--scheduler ipc:///tmp/x --protocol batsim6", "--protocol must be batsim4 or batsim5, not 'batsim6'"},
      {"--scheduler ipc:///tmp/x --protocol batsim5 --sched-cfg '{}'",
       "--sched-cfg means nothing with --protocol batsim5"},
      {"--scheduler ipc:///tmp/x --scheduler-init '{}'",
       "--scheduler-init needs --scheduler-library or --protocol"},
      {"--scheduler ipc:///tmp/x --protocol batsim4 --scheduler-init '{}'",
       "--scheduler-init means nothing with --protocol batsim4"},
  };
  for (const auto& c : cases) {
    const auto result = run(simulate + c.arguments);
    EXPECT_EQ(result.exit_code, 1) << c.arguments;
    EXPECT_NE(result.output.find(c.error), std::string::npos) << c.arguments << result.output;
  }
}

}  // namespace
}  // namespace batfill
