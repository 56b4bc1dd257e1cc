// Batsim JSON workloads, following the field rules of docs/semantics.md#batsim-json-workloads.

#include <gtest/gtest.h>

#include "batfill/workload/workload.hpp"
#include "scratch_files.hpp"

namespace batfill::workload {
namespace {

using testing::error_reading;
using testing::ScratchFiles;

const WorkloadJob& job_named(const Workload& workload, const std::string& id) {
  for (const WorkloadJob& job : workload.jobs) {
    if (job.job.id == id) return job;
  }
  throw std::runtime_error("no job " + id);
}

// A workload with one delay profile "d" (10 s) around the given job objects.
std::string with_jobs(const std::string& jobs, const std::string& extra_profiles = "") {
  return R"({"nb_res": 4, "profiles": {"d": {"type": "delay", "delay": 10})" + extra_profiles +
         R"(}, "jobs": [)" + jobs + "]}";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(BatsimJsonReader, ReadsTheShippedTinyWorkload) {
  const Workload workload = read_workload(BATFILL_SOURCE_DIR "/workloads/tiny_batsim.json");
  EXPECT_EQ(workload.machine_count, 4);
  ASSERT_EQ(workload.jobs.size(), 4u);
  EXPECT_EQ(workload.invalid_count(), 0u);

  const WorkloadJob& first = job_named(workload, "1");
  EXPECT_EQ(first.job.nodes, 2);
  EXPECT_EQ(first.job.time_limit, from_seconds(100));
  EXPECT_EQ(first.profile, "delay60");
  EXPECT_EQ(first.extra_json, "");
  EXPECT_EQ(workload.profiles.at("delay60").delay, from_seconds(60));

  const WorkloadJob& compute = job_named(workload, "2");
  EXPECT_EQ(compute.extra_json, R"({"user":"alice"})");
  const Profile& homogeneous = workload.profiles.at("compute");
  EXPECT_EQ(homogeneous.type, Profile::Type::kParallelHomogeneous);
  EXPECT_DOUBLE_EQ(homogeneous.cpu, 1e9);
  EXPECT_DOUBLE_EQ(homogeneous.com, 1e6);

  const WorkloadJob& unlimited = job_named(workload, "3");  // walltime -1: none
  EXPECT_EQ(unlimited.job.submit_time, 10'500'000);
  EXPECT_EQ(unlimited.job.time_limit, kNoTimeLimit);
  EXPECT_EQ(job_named(workload, "4").job.time_limit, kNoTimeLimit);  // integer id, no walltime
}

TEST(BatsimJsonReader, SyntaxErrorThrowsWithPathAndLine) {
  ScratchFiles files;
  const std::string path = files.write("broken.json", "{\"nb_res\": 4,\n \"jobs\": [,]}");
  try {
    read_workload(path);
    FAIL() << "expected a syntax error";
  } catch (const std::runtime_error& error) {
    EXPECT_TRUE(contains(error.what(), path + ":2: JSON syntax error")) << error.what();
  }
}

TEST(BatsimJsonReader, BrokenTopLevelThrowsWithPath) {
  ScratchFiles files;
  const std::string no_nb_res = files.write("a.json", R"({"jobs": [], "profiles": {}})");
  EXPECT_EQ(error_reading(no_nb_res), no_nb_res + ": 'nb_res' must be an integer > 0");
  const std::string zero = files.write("b.json", R"({"nb_res": 0, "jobs": [], "profiles": {}})");
  EXPECT_EQ(error_reading(zero), zero + ": 'nb_res' must be an integer > 0");
  const std::string no_jobs = files.write("c.json", R"({"nb_res": 2, "profiles": {}})");
  EXPECT_EQ(error_reading(no_jobs), no_jobs + ": 'jobs' must be a JSON array");
  const std::string array = files.write("d.json", R"([1, 2])");
  EXPECT_EQ(error_reading(array), array + ": the workload must be a JSON object");
}

TEST(BatsimJsonReader, JobMissingResIsInvalidAloneAndNamesItsIndex) {
  ScratchFiles files;
  const std::string path =
      files.write("w.json", with_jobs(R"({"id": "a", "subtime": 0, "res": 1, "profile": "d"},
                             {"id": "b", "subtime": 1, "profile": "d"})"));
  const Workload workload = read_workload(path);
  ASSERT_EQ(workload.jobs.size(), 2u);
  EXPECT_TRUE(job_named(workload, "a").is_valid());
  EXPECT_EQ(job_named(workload, "b").rejection.text(),
            path + ":2: jobs[1]: 'res' must be an integer >= 0");
}

TEST(BatsimJsonReader, UnsupportedProfileTypeMakesItsJobsInvalid) {
  ScratchFiles files;
  const std::string path =
      files.write("w.json", with_jobs(R"({"id": 1, "subtime": 0, "res": 2, "profile": "mpi"})",
                                      R"(, "mpi": {"type": "smpi", "trace": "x.txt"})"));
  const Workload workload = read_workload(path);
  ASSERT_EQ(workload.jobs.size(), 1u);
  EXPECT_TRUE(contains(workload.jobs[0].rejection.text(),
                       "profile 'mpi' has type 'smpi', which batfill's simulator does not support"))
      << workload.jobs[0].rejection.text();
  EXPECT_EQ(workload.profiles.count("mpi"), 0u);
}

// Batsim 5 names its profile types after batprotocol's tables, with Batsim 4's fields
// (Batsim 5's workload reader, profiles.cpp): DelayProfile is delay, and so on.
TEST(BatsimJsonReader, ReadsBatsim5ProfileTypes) {
  ScratchFiles files;
  const std::string path =
      files.write("w.json", with_jobs(R"({"id": 1, "subtime": 0, "res": 2, "profile": "d5"},
                   {"id": 2, "subtime": 0, "res": 2, "profile": "h5"},
                   {"id": 3, "subtime": 0, "res": 2, "profile": "spread"})",
                                      R"(, "d5": {"type": "DelayProfile", "delay": 7},
                     "h5": {"type": "ParallelTaskHomogeneousProfile", "cpu": 1e9, "com": 0},
                     "spread": {"type": "ParallelTaskHomogeneousProfile", "cpu": 1e9, "com": 0,
                                "generation_strategy": "DefinedAmountsSpreadUniformly"})"));
  const Workload workload = read_workload(path);
  EXPECT_EQ(workload.profiles.at("d5").type, Profile::Type::kDelay);
  EXPECT_EQ(workload.profiles.at("d5").delay, from_seconds(7));
  EXPECT_EQ(workload.profiles.at("h5").type, Profile::Type::kParallelHomogeneous);
  // Spreading the amounts over the hosts is not Batsim 4's homogeneous task.
  EXPECT_TRUE(contains(job_named(workload, "3").rejection.text(),
                       "type 'ParallelTaskHomogeneousProfile', which batfill's simulator does "
                       "not support"))
      << job_named(workload, "3").rejection.text();
}

TEST(BatsimJsonReader, WalltimeMinusOneMeansNoneAndZeroIsInvalid) {
  ScratchFiles files;
  const Workload workload = read_workload(files.write(
      "w.json", with_jobs(R"({"id": "none", "subtime": 0, "res": 1, "profile": "d", "walltime": -1},
                             {"id": "zero", "subtime": 0, "res": 1, "profile": "d", "walltime": 0},
                             {"id": "text", "subtime": 0, "res": 1, "profile": "d", "walltime": "1h"})")));
  EXPECT_TRUE(job_named(workload, "none").is_valid());
  EXPECT_EQ(job_named(workload, "none").job.time_limit, kNoTimeLimit);
  EXPECT_TRUE(
      contains(job_named(workload, "zero").rejection.text(), "'walltime' must be a number > 0"));
  EXPECT_TRUE(contains(job_named(workload, "text").rejection.text(), "(got \"1h\")"));
}

TEST(BatsimJsonReader, ParallelProfileNeedsOneCpuValuePerRequestedHost) {
  ScratchFiles files;
  const Workload workload = read_workload(files.write(
      "w.json", with_jobs(R"({"id": "fits", "subtime": 0, "res": 2, "profile": "p"},
                   {"id": "wrong", "subtime": 0, "res": 3, "profile": "p"},
                   {"id": "square", "subtime": 0, "res": 2, "profile": "bad"})",
                          R"(, "p": {"type": "parallel", "cpu": [1e9, 2e9], "com": [0, 5, 7, 0]},
                   "bad": {"type": "parallel", "cpu": [1, 1], "com": [0, 0, 0]})")));
  const Profile& parallel = workload.profiles.at("p");
  EXPECT_EQ(parallel.type, Profile::Type::kParallel);
  EXPECT_EQ(parallel.cpu_per_host, (std::vector<double>{1e9, 2e9}));
  EXPECT_EQ(parallel.com_matrix, (std::vector<double>{0, 5, 7, 0}));
  EXPECT_TRUE(job_named(workload, "fits").is_valid());
  EXPECT_TRUE(contains(job_named(workload, "wrong").rejection.text(),
                       "parallel over 2 hosts but the job requests 3"));
  EXPECT_TRUE(contains(job_named(workload, "square").rejection.text(), "it needs n*n = 4"));
}

TEST(BatsimJsonReader, UndefinedProfileBangInIdAndRepeatedIdAreInvalid) {
  ScratchFiles files;
  const Workload workload = read_workload(
      files.write("w.json", with_jobs(R"({"id": "x", "subtime": 0, "res": 1, "profile": "nope"},
                             {"id": "a!b", "subtime": 0, "res": 1, "profile": "d"},
                             {"id": 7, "subtime": 0, "res": 1, "profile": "d"},
                             {"id": "7", "subtime": 3, "res": 1, "profile": "d"},
                             "not a job")")));
  ASSERT_EQ(workload.jobs.size(), 5u);
  EXPECT_TRUE(contains(job_named(workload, "x").rejection.text(),
                       "profile 'nope' is not defined in 'profiles'"));
  // '!' would split Batsim's "w0!a!b" wrongly, so the id is made safe as well as rejected.
  EXPECT_TRUE(contains(job_named(workload, "a_b").rejection.text(), "id 'a!b' contains '!'"));
  EXPECT_TRUE(job_named(workload, "7").is_valid());
  EXPECT_TRUE(contains(job_named(workload, "7#2").rejection.text(), "duplicate job id '7'"));
  EXPECT_TRUE(contains(job_named(workload, "jobs[4]").rejection.text(), "is not a JSON object"));
}

TEST(BatsimJsonReader, ReasonsNameTheLineWhereTheJobStarts) {
  ScratchFiles files;
  const std::string path =
      files.write("w.json",
                  "{\"nb_res\": 4,\n"
                  " \"profiles\": {\"d\": {\"type\": \"delay\", \"delay\": 1}},\n"
                  " \"jobs\": [\n"
                  "  {\"id\": 1, \"subtime\": 0, \"res\": 1, \"profile\": \"d\",\n"
                  "   \"nested\": [{\"a\": 1}, [2]]},\n"
                  "  7,\n"
                  "  {\n"
                  "   \"id\": 1, \"subtime\": 0, \"res\": 1, \"profile\": \"d\"}]}\n");
  const Workload workload = read_workload(path);
  ASSERT_EQ(workload.jobs.size(), 3u);
  EXPECT_EQ(workload.jobs[0].job.id, "1");
  EXPECT_EQ(workload.jobs[1].job.id, "1#2");
  EXPECT_EQ(workload.jobs[1].rejection.text(),
            path + ":7: jobs[2]: duplicate job id '1' (first used at " + path +
                ":4: jobs[0]), renamed '1#2'");
  EXPECT_EQ(workload.jobs[2].rejection.text(), path + ":6: jobs[1]: is not a JSON object");
  // The record's index belongs to its position, so that the summary groups the bare reason.
  EXPECT_EQ(workload.jobs[2].rejection.position(), path + ":6: jobs[1]");
  EXPECT_EQ(workload.jobs[2].rejection.why(), "is not a JSON object");
}

TEST(BatsimJsonReader, KeepsUserFieldsVerbatimInFileOrder) {
  ScratchFiles files;
  const Workload workload = read_workload(files.write(
      "w.json", with_jobs(R"({"id": 1, "user": "bob", "subtime": 0, "res": 1, "profile": "d",
                              "tags": [1, {"k": null}], "walltime": 5})")));
  EXPECT_EQ(workload.jobs.at(0).extra_json, R"({"user":"bob","tags":[1,{"k":null}]})");
}

}  // namespace
}  // namespace batfill::workload
