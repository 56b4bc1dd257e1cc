// Resize requests replayed by `batfill simulate` end to end
// (docs/semantics.md#resize-requests-of-running-jobs): from a Batsim JSON job's "resize" field and
// from --resize, under every backfilling policy, with PREFIX_resizes.csv, the summary's counts and
// `batfill check` of the granted machines. Expected schedules are derived by hand from the rules of
// docs/semantics.md#resize-requests-of-running-jobs in each test's comment.

#include <fstream>
#include <random>
#include <set>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::CsvRow;
using cli_testing::run;

const std::vector<std::string> kBackfilling = {"easy", "conservative", "easy-classic",
                                               "conservative-classic"};

std::string write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// 10 nodes, hours as seconds. a (2 nodes) and c (6 nodes, 30 h) start at 0; b comes at 1 h and
// is reserved at 30 h, c's end. a asks for 2 more nodes after 4 h.
std::string three_jobs(int a_walltime_hours, int a_runtime_hours, int b_nodes) {
  const auto hours = [](int h) { return std::to_string(h * 3600); };
  return R"({"nb_res": 10, "jobs": [
    {"id": "a", "subtime": 0, "res": 2, "walltime": )" +
         hours(a_walltime_hours) +
         R"(, "profile": "a", "resize": [{"after": 14400, "nodes": 2}]},
    {"id": "c", "subtime": 0, "res": 6, "walltime": 108000, "profile": "h30"},
    {"id": "b", "subtime": 3600, "res": )" +
         std::to_string(b_nodes) +
         R"(, "walltime": 18000, "profile": "h5"}],
   "profiles": {"a": {"type": "delay", "delay": )" +
         hours(a_runtime_hours) + R"(},
                "h30": {"type": "delay", "delay": 108000},
                "h5": {"type": "delay", "delay": 18000}}})";
}

struct ResizeRun {
  cli_testing::CommandResult result;
  std::vector<CsvRow> jobs, resizes;
  std::string jobs_csv;
};

ResizeRun simulate(const std::string& dir, const std::string& workload, const std::string& policy,
                   const std::string& extra = "") {
  ResizeRun r;
  const std::string prefix = dir + "/" + policy;
  r.result = run("simulate " + workload + " --no-progress --backfill " + policy + " --output " +
                 prefix + " " + extra);
  r.jobs_csv = prefix + "_jobs.csv";
  if (r.result.exit_code != 0) return r;
  r.jobs = cli_testing::read_csv(r.jobs_csv);
  if (std::ifstream(prefix + "_resizes.csv"))
    r.resizes = cli_testing::read_csv(prefix + "_resizes.csv");
  return r;
}

std::string start_of(const std::vector<CsvRow>& jobs, const std::string& id) {
  for (const CsvRow& row : jobs) {
    if (row.at("job_id") == id) return row.at("starting_time");
  }
  return "missing";
}

// b needs all 10 nodes: reserved at 30 h. At 4 h the request's run time is what remains of a's
// 20 h limit, 16 h: it ends at 20 h, before 30 h, so it backfills on the 2 free nodes (8-9)
// under every policy, and gives them back when a ends at 20 h. b still starts at 30 h.
TEST(ResizeCli, RequestEndingBeforeTheReservationIsGrantedAtOnce) {
  const std::string dir = cli_testing::output_dir();
  const std::string workload = write(dir + "/w.json", three_jobs(20, 20, 10));
  for (const std::string& policy : kBackfilling) {
    const ResizeRun r = simulate(dir, workload, policy);
    ASSERT_EQ(r.result.exit_code, 0) << policy << r.result.output;
    ASSERT_EQ(r.resizes.size(), 1u) << policy;
    const CsvRow& request = r.resizes[0];
    EXPECT_EQ(request.at("job_id"), "a");
    EXPECT_EQ(request.at("request_time"), "14400.000000") << policy;
    EXPECT_EQ(request.at("nodes"), "2");
    EXPECT_EQ(request.at("grant_time"), "14400.000000") << policy;
    EXPECT_EQ(request.at("allocated_resources"), "8-9") << policy;
    EXPECT_EQ(request.at("release_time"), "72000.000000") << policy;
    EXPECT_EQ(request.at("outcome"), "granted") << policy;
    EXPECT_EQ(start_of(r.jobs, "b"), "108000.000000") << policy;
    // _jobs.csv keeps a's initial allocation.
    EXPECT_EQ(r.jobs[0].at("job_id"), "a");
    EXPECT_EQ(r.jobs[0].at("allocated_resources"), "0-1") << policy;
    EXPECT_NE(r.result.output.find("resize requests: 1 made, 1 granted (mean wait 0.0 s, "
                                   "115200 node-seconds), 0 cancelled"),
              std::string::npos)
        << r.result.output;
    cli_testing::expect_valid_schedule(r.jobs_csv, "--nodes 10");
  }
}

// workloads/resize_example.json is this case, as the README shows it.
TEST(ResizeCli, BundledExampleIsTheFirstCase) {
  const std::string dir = cli_testing::output_dir();
  const ResizeRun r =
      simulate(dir, cli_testing::source_path("workloads/resize_example.json"), "easy-classic");
  ASSERT_EQ(r.result.exit_code, 0) << r.result.output;
  ASSERT_EQ(r.resizes.size(), 1u);
  EXPECT_EQ(r.resizes[0].at("grant_time"), "14400.000000");
  EXPECT_EQ(r.resizes[0].at("allocated_resources"), "8-9");
}

// a's limit is 40 h (it runs 20 h) and b needs 8 nodes: at 30 h c's 6 and the 2 free nodes
// make b's 8, so b is reserved at 30 h with none to spare. The request would end with a's limit
// at 40 h, after 30 h: it may not take the free nodes b needs, under any policy. a ends at 20 h
// and the request is cancelled then; b starts at 30 h.
TEST(ResizeCli, RequestEndingAfterTheReservationWaitsAndIsCancelled) {
  const std::string dir = cli_testing::output_dir();
  const std::string workload = write(dir + "/w.json", three_jobs(40, 20, 8));
  for (const std::string& policy : kBackfilling) {
    const ResizeRun r = simulate(dir, workload, policy);
    ASSERT_EQ(r.result.exit_code, 0) << policy << r.result.output;
    ASSERT_EQ(r.resizes.size(), 1u) << policy;
    const CsvRow& request = r.resizes[0];
    EXPECT_EQ(request.at("request_time"), "14400.000000") << policy;
    EXPECT_EQ(request.at("grant_time"), "") << policy;
    EXPECT_EQ(request.at("allocated_resources"), "") << policy;
    EXPECT_EQ(request.at("release_time"), "72000.000000") << policy;
    EXPECT_EQ(request.at("outcome"), "cancelled") << policy;
    EXPECT_EQ(start_of(r.jobs, "b"), "108000.000000") << policy;
    EXPECT_NE(r.result.output.find("resize requests: 1 made, 0 granted (mean wait 0.0 s, 0 "
                                   "node-seconds), 1 cancelled"),
              std::string::npos)
        << r.result.output;
    cli_testing::expect_valid_schedule(r.jobs_csv, "--nodes 10");
  }
}

// a runs 3 h: its request, due after 4 h, is never made; the summary counts it.
TEST(ResizeCli, RequestDueAfterTheJobsEndIsNeverMade) {
  const std::string dir = cli_testing::output_dir();
  const ResizeRun r = simulate(dir, write(dir + "/w.json", three_jobs(20, 3, 10)), "easy");
  ASSERT_EQ(r.result.exit_code, 0) << r.result.output;
  EXPECT_TRUE(r.resizes.empty());
  EXPECT_NE(r.result.output.find("resize requests: 0 made"), std::string::npos) << r.result.output;
  EXPECT_NE(r.result.output.find("1 request never made"), std::string::npos) << r.result.output;
}

// The first test's jobs as an SWF trace, the request from a --resize file: the same rows.
TEST(ResizeCli, ResizeFileGivesTheSameRequestsAsTheJsonField) {
  const std::string dir = cli_testing::output_dir();
  const std::string trace = write(dir + "/w.swf",
                                  "; MaxProcs: 10\n"
                                  "1 0 -1 72000 2 -1 -1 2 72000 -1 1 1 -1 -1 1 -1 -1 -1\n"
                                  "2 0 -1 108000 6 -1 -1 6 108000 -1 1 1 -1 -1 1 -1 -1 -1\n"
                                  "3 3600 -1 18000 10 -1 -1 10 18000 -1 1 1 -1 -1 1 -1 -1 -1\n");
  const std::string requests = write(dir + "/resize.csv", "job_id,after,nodes\n1,14400,2\n");
  const ResizeRun r = simulate(dir, trace, "easy-classic", "--resize " + requests);
  ASSERT_EQ(r.result.exit_code, 0) << r.result.output;
  ASSERT_EQ(r.resizes.size(), 1u);
  EXPECT_EQ(r.resizes[0].at("job_id"), "1");
  EXPECT_EQ(r.resizes[0].at("grant_time"), "14400.000000");
  EXPECT_EQ(r.resizes[0].at("allocated_resources"), "8-9");
  EXPECT_NE(r.result.output.find("_resizes.csv"), std::string::npos) << r.result.output;

  const std::string unknown = write(dir + "/unknown.csv", "job_id,after,nodes\n1,14400,2\n9,1,1\n");
  const auto refused = run("simulate " + trace + " --no-progress --resize " + unknown +
                           " --output " + dir + "/refused");
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.output.find(unknown + ":3: 'job_id' names no job of the workload: '9'"),
            std::string::npos)
      << refused.output;
}

// No Batsim protocol can grow an allocation: an external scheduler (here Batsim 5's EDC
// library) runs the jobs of a workload that carries requests without them, and says so.
TEST(ResizeCli, ExternalSchedulerRunsWithoutTheRequests) {
  const std::string dir = cli_testing::output_dir();
  const auto result =
      run("simulate " + write(dir + "/w.json", three_jobs(20, 20, 10)) +
          " --no-progress --scheduler-library " BATFILL_EDC_LIBRARY + " --output " + dir + "/edc");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("resize requests are made only to batfill's own scheduler"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(std::ifstream(dir + "/edc_resizes.csv"));
}

// --resize beside an external scheduler would mean nothing, and is refused.
TEST(ResizeCli, ExternalSchedulerIsRefusedResizeRequests) {
  const std::string dir = cli_testing::output_dir();
  const std::string trace = write(dir + "/w.json", three_jobs(20, 20, 10));
  const std::string requests = write(dir + "/r.csv", "job_id,after,nodes\n1,10,2\n");
  const auto result =
      run("simulate " + trace + " --resize " + requests +
          " --no-progress --scheduler-library " BATFILL_EDC_LIBRARY + " --output " + dir + "/edc");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("--resize means nothing with --scheduler-library"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(std::ifstream(dir + "/edc_jobs.csv"));
}

// `batfill check` reads PREFIX_resizes.csv beside PREFIX_jobs.csv: a grant on machines a job
// holds is a machine used twice.
TEST(ResizeCli, CheckCountsGrantedMachines) {
  const std::string dir = cli_testing::output_dir();
  const ResizeRun r = simulate(dir, write(dir + "/w.json", three_jobs(20, 20, 10)), "easy");
  ASSERT_EQ(r.result.exit_code, 0) << r.result.output;
  const auto good = run("check " + r.jobs_csv + " --nodes 10");
  EXPECT_EQ(good.exit_code, 0) << good.output;
  EXPECT_NE(good.output.find("1 resize request ("), std::string::npos) << good.output;

  std::string text = cli_testing::read_file(dir + "/easy_resizes.csv");
  text.replace(text.find(",8-9,"), 5, ",2-3,");  // c's machines
  const std::string bad = write(dir + "/bad_resizes.csv", text);
  const auto refused = run("check " + r.jobs_csv + " --nodes 10 --resizes " + bad);
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("machine 2 runs job 'c' (line 3) and resize request of job 'a' "
                                "(line 2 of the resize file) at once at 14400.000000 s"),
            std::string::npos)
      << refused.output;
}

// Property: random workloads with random requests, under every policy. `batfill check` finds no
// machine used twice (jobs and granted requests together), every request made is granted or
// cancelled at its job's end, and made plus never-made requests are all requests.
TEST(ResizeCliProperty, RandomRequestsAreSettledWithoutDoubleBooking) {
  const std::string dir = cli_testing::output_dir();
  for (unsigned seed = 1; seed <= 3; ++seed) {
    std::mt19937 random(seed);
    const auto uniform = [&](int low, int high) {
      return std::uniform_int_distribution<int>(low, high)(random);
    };
    std::string trace = "; MaxProcs: 16\n";
    std::string requests = "job_id,after,nodes\n";
    int request_count = 0;
    int submit = 0;
    for (int id = 1; id <= 60; ++id) {
      submit += uniform(0, 2000);
      const int runtime = uniform(100, 5000);
      const int walltime = runtime + uniform(0, 3000);
      const int nodes = uniform(1, 8);
      trace += std::to_string(id) + " " + std::to_string(submit) + " -1 " +
               std::to_string(runtime) + " " + std::to_string(nodes) + " -1 -1 " +
               std::to_string(nodes) + " " + std::to_string(walltime) +
               " -1 1 1 -1 -1 1 -1 -1 -1\n";
      for (int k = uniform(0, 2); k > 0 && uniform(0, 2) == 0; --k) {
        requests += std::to_string(id) + "," + std::to_string(uniform(0, walltime - 1)) + "," +
                    std::to_string(uniform(1, 4)) + "\n";
        ++request_count;
      }
    }
    const std::string trace_path = write(dir + "/w" + std::to_string(seed) + ".swf", trace);
    const std::string requests_path = write(dir + "/r" + std::to_string(seed) + ".csv", requests);
    for (const std::string& policy : kBackfilling) {
      const std::string what = policy + " seed " + std::to_string(seed);
      const ResizeRun r = simulate(dir + "/seed" + std::to_string(seed), trace_path, policy,
                                   "--resize " + requests_path);
      ASSERT_EQ(r.result.exit_code, 0) << what << r.result.output;
      cli_testing::expect_valid_schedule(r.jobs_csv, "--nodes 16 --workload " + trace_path);
      for (const CsvRow& request : r.resizes) {
        const std::string& outcome = request.at("outcome");
        EXPECT_TRUE(outcome == "granted" || outcome == "cancelled") << what << " " << outcome;
      }
      int never_made = 0;
      const std::size_t at = r.result.output.find(" never made");
      if (at != std::string::npos) {
        never_made = std::stoi(r.result.output.substr(r.result.output.rfind('\n', at) + 1));
      }
      EXPECT_EQ(static_cast<int>(r.resizes.size()) + never_made, request_count) << what;
    }
  }
}

}  // namespace
}  // namespace batfill
