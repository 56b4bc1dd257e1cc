// --queues end to end (docs/semantics.md#queues---queues): the LSF example as an SWF trace (queue
// in field 15), in-process with --queues and with the key `queues` of --sched-cfg, and through the
// embedded stand-in against `batfill serve --queues`: the same _jobs.csv everywhere, per-queue
// figures only with queues.

#include <fstream>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::run;

// 4 CPUs. job 1 (1 CPU, 2 h) at 0 and job 2 (4 CPUs, 1 h) at 60 in queue 1; job 3 (2 CPUs,
// 1 h) at 1800 in queue 3, which may not backfill: job 2 reserves 7200 and runs 7200-10800; job
// 3 ends before 7200 but waits for 10800 (in a backfill queue it would start at 1800).
const char* kTrace =
    "; MaxNodes: 4\n"
    "; MaxProcs: 4\n"
    "1 0 -1 7200 1 -1 -1 1 7200 -1 1 1 -1 -1 1 -1 -1 -1\n"
    "2 60 -1 3600 4 -1 -1 4 3600 -1 1 1 -1 -1 1 -1 -1 -1\n"
    "3 1800 -1 3600 2 -1 -1 2 3600 -1 1 2 -1 -1 3 -1 -1 -1\n";
const char* kQueues =
    R"({"queues": [{"name": "main", "ids": [1], "priority": 20},
                   {"name": "third", "ids": [3], "priority": 20, "backfill": false}]})";

std::string write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

std::string start_of_job3(const std::string& jobs_csv) {
  for (const cli_testing::CsvRow& row : cli_testing::read_csv(jobs_csv)) {
    if (row.at("job_id") == "3") return row.at("starting_time");
  }
  return "";
}

TEST(QueuesCli, NonBackfillQueueWaitsEverywhereAlike) {
  const std::string dir = cli_testing::output_dir();
  const std::string trace = write(dir + "/lsf.swf", kTrace);
  const std::string queues = write(dir + "/queues.json", kQueues);
  const std::string common = "simulate " + trace + " --no-progress --backfill easy-classic";

  const auto plain = run(common + " --output " + dir + "/plain");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_EQ(start_of_job3(dir + "/plain_jobs.csv"), "1800.000000");
  EXPECT_EQ(cli_testing::read_file(dir + "/plain_schedule.csv").find("queue_"), std::string::npos);

  const auto with_file = run(common + " --queues " + queues + " --output " + dir + "/file");
  ASSERT_EQ(with_file.exit_code, 0) << with_file.output;
  EXPECT_EQ(start_of_job3(dir + "/file_jobs.csv"), "10800.000000");
  EXPECT_NE(with_file.output.find("queue third: 1 job executed, mean wait 9000.0 s"),
            std::string::npos)
      << with_file.output;
  const std::string schedule = cli_testing::read_file(dir + "/file_schedule.csv");
  EXPECT_NE(schedule.find("queue_third_mean_waiting_time"), std::string::npos);
  EXPECT_NE(schedule.find("queue_main_mean_bounded_slowdown"), std::string::npos);

  const auto with_key =
      run(common + " --sched-cfg '{\"queues\":\"" + queues + "\"}' --output " + dir + "/key");
  ASSERT_EQ(with_key.exit_code, 0) << with_key.output;
  EXPECT_EQ(cli_testing::read_file(dir + "/key_jobs.csv"),
            cli_testing::read_file(dir + "/file_jobs.csv"));

  const std::string endpoint = cli_testing::ipc_endpoint("queues");
  const cli_testing::ExternalRun external = cli_testing::run_external(
      endpoint, "--backfill easy-classic --queues " + queues,
      "simulate " + trace + " --no-progress --output " + dir + "/ext", dir);
  ASSERT_EQ(external.simulate.exit_code, 0) << external.simulate.output << external.serve_log;
  EXPECT_EQ(cli_testing::read_file(dir + "/ext_jobs.csv"),
            cli_testing::read_file(dir + "/file_jobs.csv"));
}

// conservative-classic takes --queues too, in-process and beside the stand-in as batsched's
// conservative_bf: job 3 may not be planned before job 2's slot, 7200, and none of its CPUs are
// free during it, so it gets 10800, as under easy-classic.
TEST(QueuesCli, ConservativeClassicAppliesQueues) {
  const std::string dir = cli_testing::output_dir();
  const std::string trace = write(dir + "/lsf.swf", kTrace);
  const std::string queues = write(dir + "/queues.json", kQueues);
  const std::string common = "simulate " + trace + " --no-progress";
  const auto in_process = run(common + " --backfill conservative-classic --queues " + queues +
                              " --output " + dir + "/file");
  ASSERT_EQ(in_process.exit_code, 0) << in_process.output;
  EXPECT_EQ(start_of_job3(dir + "/file_jobs.csv"), "10800.000000");
  const std::string endpoint = cli_testing::ipc_endpoint("cc-queues");
  const cli_testing::ExternalRun external = cli_testing::run_external(
      endpoint, "-v conservative_bf --queues " + queues, common + " --output " + dir + "/ext", dir);
  ASSERT_EQ(external.simulate.exit_code, 0) << external.simulate.output << external.serve_log;
  EXPECT_EQ(cli_testing::read_file(dir + "/ext_jobs.csv"),
            cli_testing::read_file(dir + "/file_jobs.csv"));
}

TEST(QueuesCli, BadConfigurationsNameTheFileAndKey) {
  const std::string dir = cli_testing::output_dir();
  const std::string trace = write(dir + "/lsf.swf", kTrace);
  const std::string bad = write(dir + "/bad.json", R"({"queues": [{"name": "a", "bogus": 1}]})");
  const auto result = run("simulate " + trace + " --no-progress --queues " + bad);
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("bad.json"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("queues[0].bogus"), std::string::npos) << result.output;

  const std::string twice = write(
      dir + "/twice.json", R"({"queues": [{"name": "a", "ids": [1]}, {"name": "b", "ids": [1]}]})");
  const auto duplicate = run("simulate " + trace + " --no-progress --queues " + twice);
  EXPECT_NE(duplicate.exit_code, 0);
  EXPECT_NE(duplicate.output.find("queue id '1' is listed twice"), std::string::npos)
      << duplicate.output;
}

}  // namespace
}  // namespace batfill
