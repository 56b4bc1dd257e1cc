// The stand-in's options for the rest of Batsim 4's protocol (docs/usage.md, "Batsim's external
// events and dynamic jobs"): bad values are refused naming the option, the file and the line;
// batfill's own scheduler keeps machines made unavailable by --events free of new jobs.

#include <gtest/gtest.h>

#include <fstream>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::read_csv;
using cli_testing::run;

const std::string kData = BATFILL_SOURCE_DIR "/tests/batsim/data/";
const std::string kWorkload = kData + "energy/test_delays.json";
const std::string kPlatform = kData + "suite/small_platform.xml";

std::string simulate(const std::string& options) {
  return run("simulate " + kWorkload + " --platform " + kPlatform + " --no-progress " + options)
      .output;
}

TEST(BatsimFeatures, OptionsThatNeedAnotherAreRefused) {
  EXPECT_NE(simulate("--acknowledge-dynamic-jobs --scheduler tcp://127.0.0.1:1")
                .find("--acknowledge-dynamic-jobs needs --enable-dynamic-jobs"),
            std::string::npos);
  EXPECT_NE(simulate("--enable-profile-reuse --scheduler tcp://127.0.0.1:1")
                .find("--enable-profile-reuse needs --enable-dynamic-jobs"),
            std::string::npos);
  EXPECT_NE(simulate("--enable-dynamic-jobs")
                .find("--enable-dynamic-jobs needs --scheduler or --scheduler-library"),
            std::string::npos);
  EXPECT_NE(simulate("--forward-unknown-events").find("--forward-unknown-events needs --events"),
            std::string::npos);
}

// Batsim refuses an event file line that is not a JSON event, an event of its own types that
// lacks its fields, and an event of another type unless told to forward it.
TEST(BatsimFeatures, BadEventFilesAreRefusedNamingTheLine) {
  const std::string dir = cli_testing::output_dir();
  const std::pair<std::string, std::string> cases[] = {
      {R"({"type":"machine_unavailable","resources":"0","timestamp":1})"
       "\nnot json\n",
       "events.txt:2: not JSON"},
      {"[1]\n", "events.txt:1: an event must be a JSON object"},
      {R"({"type":"machine_available","timestamp":1})"
       "\n",
       "events.txt:1: a machine_available event needs a string 'resources'"},
      {R"({"type":"machine_available","resources":"x","timestamp":1})"
       "\n",
       "events.txt:1: 'resources' is not an interval set"},
      {R"({"type":"machine_available","resources":"7","timestamp":1})"
       "\n",
       "events.txt:1: machines '7' outside the platform's 0-3"},
      {R"({"type":"machine_available","resources":"0","timestamp":-1})"
       "\n",
       "events.txt:1: the event has no number 'timestamp' >= 0"},
      {R"({"resources":"0","timestamp":1})"
       "\n",
       "events.txt:1: the event has no string 'type'"},
  };
  for (const auto& [text, expected] : cases) {
    std::ofstream(dir + "/events.txt") << text;
    const std::string output = simulate("--events " + dir + "/events.txt --output " + dir + "/o");
    EXPECT_NE(output.find(expected), std::string::npos) << output;
  }
  EXPECT_NE(simulate("--events " + dir + "/none.txt").find("cannot read the events file"),
            std::string::npos);
  const std::string generic = kData + "suite/test_generic_event.txt";
  EXPECT_NE(simulate("--events " + generic + " --output " + dir + "/o")
                .find("event type 'some_generic_event' is none of machine_unavailable and "
                      "machine_available; Batsim forwards other events only with "
                      "--forward-unknown-events"),
            std::string::npos);
  const cli_testing::CommandResult forwarded =
      run("simulate " + kWorkload + " --platform " + kPlatform + " --no-progress --events " +
          generic + " --forward-unknown-events --output " + dir + "/forwarded");
  EXPECT_EQ(forwarded.exit_code, 0) << forwarded.output;
  EXPECT_EQ(read_csv(dir + "/forwarded_jobs.csv").size(), 10u);
}

// Batsim's test_events_4hosts.txt: machine 0 unavailable from 0 to 10; machines 0, 1 and 3 from
// 20, back at 250 (0, 1) and 300 (3). No job may start on a machine while it is unavailable,
// and every job still runs.
TEST(BatsimFeatures, OwnSchedulerStartsNoJobOnUnavailableMachines) {
  const std::string dir = cli_testing::output_dir();
  const cli_testing::CommandResult result =
      run("simulate " + kWorkload + " --platform " + kPlatform + " --no-progress --events " +
          kData + "suite/test_events_4hosts.txt --output " + dir + "/out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto jobs = read_csv(dir + "/out_jobs.csv");
  ASSERT_EQ(jobs.size(), 10u);
  for (const auto& job : jobs) {
    EXPECT_EQ(job.at("final_state"), "COMPLETED_SUCCESSFULLY");
    const double start = std::stod(job.at("starting_time"));
    const std::string machine = job.at("allocated_resources");
    if (start < 10) EXPECT_NE(machine, "0") << job.at("job_id");
    if (start >= 20 && start < 250) EXPECT_EQ(machine, "2") << job.at("job_id");
  }
}

}  // namespace
}  // namespace batfill
