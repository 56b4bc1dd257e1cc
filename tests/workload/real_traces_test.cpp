// The bundled Parallel Workloads Archive traces, checked against the counts in workloads/README.md,
// and replayed under the policies that have a literal transcription (tests/support).

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>

#include "batfill/workload/workload.hpp"

#include "../support/instant_replay.hpp"
#include "../support/literal_policies.hpp"

namespace batfill::workload {
namespace {

const std::string kTraces = BATFILL_SOURCE_DIR "/workloads/";

int valid_count(const Workload& workload) {
  return static_cast<int>(workload.jobs.size() - workload.invalid_count());
}

bool in_submit_order(const Workload& workload) {
  return std::is_sorted(workload.jobs.begin(), workload.jobs.end(),
                        [](const WorkloadJob& a, const WorkloadJob& b) {
                          if (a.job.submit_time != b.job.submit_time) {
                            return a.job.submit_time < b.job.submit_time;
                          }
                          return job_id_less(a.job.id, b.job.id);
                        });
}

struct TraceFacts {
  const char* file;
  std::size_t records;  // README "jobs" column: every record, runnable or not
  int machine_count;    // README "machine (MaxProcs)" column
};

class RealTrace : public ::testing::TestWithParam<TraceFacts> {};

TEST_P(RealTrace, KeepsEveryRecordAndReadsTheMachineSize) {
  const TraceFacts& facts = GetParam();
  const Workload workload = read_workload(kTraces + facts.file);
  EXPECT_EQ(workload.jobs.size(), facts.records);
  ASSERT_TRUE(workload.machine_count.has_value());
  EXPECT_EQ(*workload.machine_count, facts.machine_count);
  EXPECT_TRUE(in_submit_order(workload));
  for (const WorkloadJob& job : workload.jobs) {
    if (!job.is_valid()) continue;
    ASSERT_GT(job.job.nodes, 0) << job.job.id;
    ASSERT_TRUE(job.job.has_time_limit()) << job.job.id;
    ASSERT_EQ(workload.profiles.count(job.profile), 1u) << job.job.id;
  }
}

INSTANTIATE_TEST_SUITE_P(SharedWorkloads, RealTrace,
                         ::testing::Values(TraceFacts{"KTH-SP2-1996-2.1-cln.swf.gz", 28476, 100},
                                           TraceFacts{"CTC-SP2-1996-3.1-cln.swf.gz", 77222, 338},
                                           TraceFacts{"SDSC-SP2-1998-4.2-cln.swf.gz", 59715, 128},
                                           TraceFacts{"SDSC-BLUE-2000-4.2-cln.swf.gz", 243306,
                                                      1152},
                                           TraceFacts{"NASA-iPSC-1993-3.1-cln.swf.gz", 18239, 128},
                                           TraceFacts{"lublin_256.swf", 10000, 256}));

TEST(RealTraces, NasaHasNoRequestedTimesSoEveryLimitComesFromTheRuntime) {
  // README: NASA-iPSC "requested time (field 9): none".
  const Workload workload = read_workload(kTraces + "NASA-iPSC-1993-3.1-cln.swf.gz");
  EXPECT_GT(valid_count(workload), 0);
  EXPECT_EQ(workload.time_limits_from_runtime, valid_count(workload));
  EXPECT_EQ(workload.jobs_overrunning_limit, 0);
}

TEST(RealTraces, CtcOverrunsMatchTheReadme) {
  // README: CTC-SP2 has 77,216 requested times and "7,174 jobs overrun their estimate"
  // (runtime > field 9 with field 9 > 0); the other 6 jobs get their runtime as limit.
  const Workload workload = read_workload(kTraces + "CTC-SP2-1996-3.1-cln.swf.gz");
  EXPECT_EQ(workload.jobs_overrunning_limit, 7174);
  EXPECT_EQ(workload.time_limits_from_runtime, 77222 - 77216);
  EXPECT_EQ(workload.invalid_count(), 0u);
}

TEST(RealTraces, SdscSp2CancelledJobsAreRejectedNotDropped) {
  // README: 5,681 SDSC-SP2 jobs have runtime <= 0. Runtime -1 is invalid, runtime 0 is a valid
  // zero-length job, so the invalid records are among those 5,681 and all still present.
  const Workload workload = read_workload(kTraces + "SDSC-SP2-1998-4.2-cln.swf.gz");
  EXPECT_GT(workload.invalid_count(), 0u);
  EXPECT_LE(workload.invalid_count(), 5681u);
  for (const WorkloadJob& job : workload.jobs) {
    if (job.is_valid()) continue;
    ASSERT_NE(job.rejection.text().find("runtime (field 4) is -1"), std::string::npos)
        << job.rejection.text();
  }
}

TEST(RealTraces, DrevtTraceHasTwoThousandJobsRunningTheirLimits) {
  // README: "drevt-huge_2000jobs.csv": 2000 jobs; runtime = time limit (DR_EVT limit mode).
  const Workload workload = read_workload(kTraces + "drevt-huge_2000jobs.csv");
  ASSERT_EQ(workload.jobs.size(), 2000u);
  EXPECT_EQ(workload.invalid_count(), 0u);
  EXPECT_FALSE(workload.machine_count.has_value());
  EXPECT_TRUE(in_submit_order(workload));
  for (const WorkloadJob& job : workload.jobs) {
    ASSERT_EQ(workload.profiles.at(job.profile).delay, job.job.time_limit) << job.job.id;
  }
}

// The valid jobs of `workload` for the instant replay, each running its profile's delay (cut at
// its limit by the replay, as the simulator does).
std::vector<testing::TraceJob> trace_of(const Workload& workload) {
  std::vector<testing::TraceJob> trace;
  for (const WorkloadJob& job : workload.jobs) {
    if (!job.is_valid()) continue;
    trace.push_back({job.job, workload.profiles.at(job.profile).delay});
  }
  return trace;
}

int starts_differing(const testing::ReplayResult& fast, const testing::ReplayResult& literal) {
  EXPECT_EQ(fast.start.size(), literal.start.size());
  int differing = 0;
  for (const auto& [id, start] : literal.start) {
    const auto found = fast.start.find(id);
    differing += found == fast.start.end() || found->second != start;
  }
  return differing;
}

// Random workloads (tests/core) try odd shapes; real traces bring what they lack: queues of
// thousands, many equal planned ends, early completions by the hundred thousand. Every job must
// start when the literal transcription starts it. The spec's CONSERVATIVE is left out: its
// literal form is quadratic in the queue, hours on these traces.
class LiteralOnRealTrace : public ::testing::TestWithParam<const char*> {};

TEST_P(LiteralOnRealTrace, EasyStartsEveryJobAsTheSpecPseudoCode) {
  const Workload workload = read_workload(kTraces + GetParam());
  const std::vector<testing::TraceJob> trace = trace_of(workload);
  const int machines = *workload.machine_count;
  const testing::ReplayResult literal =
      testing::replay(trace, machines, std::make_unique<testing::LiteralSpecPolicy>(false));
  EXPECT_EQ(starts_differing(testing::replay(trace, machines, "easy"), literal), 0);
}

TEST_P(LiteralOnRealTrace, ConservativeClassicStartsEveryJobAsItsLiteralRules) {
  const Workload workload = read_workload(kTraces + GetParam());
  const std::vector<testing::TraceJob> trace = trace_of(workload);
  const int machines = *workload.machine_count;
  const testing::ReplayResult literal =
      testing::replay(trace, machines, std::make_unique<testing::LiteralConservativeClassic>());
  EXPECT_EQ(starts_differing(testing::replay(trace, machines, "conservative-classic"), literal), 0);
}

INSTANTIATE_TEST_SUITE_P(BundledTraces, LiteralOnRealTrace,
                         ::testing::Values("KTH-SP2-1996-2.1-cln.swf.gz",
                                           "CTC-SP2-1996-3.1-cln.swf.gz",
                                           "SDSC-SP2-1998-4.2-cln.swf.gz",
                                           "SDSC-BLUE-2000-4.2-cln.swf.gz",
                                           "NASA-iPSC-1993-3.1-cln.swf.gz", "lublin_256.swf"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;  // KTH_SP2_1996_2_1_cln_swf_gz
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace batfill::workload
