// compute_metrics on four hand-built jobs: Batsim's means divide by all jobs, rejected
// included; batfill's mean bounded slowdown (tau = 10 s) and mean wait divide by executed jobs.

#include <gtest/gtest.h>

#include <vector>

#include "batfill/simulator/job_record.hpp"
#include "records.hpp"

namespace batfill::simulator {
namespace {

using testing::executed;
using testing::rejected;
using testing::submitted;

// On 4 machines, times in seconds:
//   job  submit  start  finish  machines  state            run  wait  turnaround
//   a    0       0      20      0-1       success          20   0     20
//   b    5       10     15      3         walltime reached  5   5     10
//   c    10      20     40      0-3       failed           20   10    30
//   d    2       -      -       -         rejected
std::vector<JobRecord> four_jobs() {
  return {
      executed(submitted("a", from_seconds(0), 2, from_seconds(100)),
               FinalState::kCompletedSuccessfully, from_seconds(0), from_seconds(20),
               machine_range(0, 1)),
      executed(submitted("b", from_seconds(5), 1, from_seconds(5)),
               FinalState::kCompletedWalltimeReached, from_seconds(10), from_seconds(15),
               machine_range(3, 3)),
      executed(submitted("c", from_seconds(10), 4, from_seconds(50)), FinalState::kCompletedFailed,
               from_seconds(20), from_seconds(40), machine_range(0, 3)),
      rejected(submitted("d", from_seconds(2), 8), "too large"),
  };
}

TEST(Metrics, CountsJobsByFinalState) {
  const ScheduleMetrics m = compute_metrics(four_jobs(), 4);
  EXPECT_EQ(m.machine_count, 4);
  EXPECT_EQ(m.jobs, 4);
  EXPECT_EQ(m.jobs_executed, 3);  // a, b, c
  EXPECT_EQ(m.jobs_rejected, 1);  // d
  EXPECT_EQ(m.jobs_succeeded, 1);
  EXPECT_EQ(m.jobs_walltime_reached, 1);
  EXPECT_EQ(m.jobs_failed, 1);
}

TEST(Metrics, MakespanIsTheLatestFinishAndUtilizationTheBusyShare) {
  const ScheduleMetrics m = compute_metrics(four_jobs(), 4);
  EXPECT_EQ(m.first_submit, 0);                  // min(0, 5, 10, 2), rejected d included
  EXPECT_EQ(m.makespan, from_seconds(40));       // c's finish
  EXPECT_DOUBLE_EQ(m.busy_node_seconds, 125.0);  // 20 x 2 + 5 x 1 + 20 x 4
  EXPECT_DOUBLE_EQ(m.utilization, 0.78125);      // 125 / (4 machines x (40 - 0) s) = 125 / 160
}

TEST(Metrics, BatsimMeansDivideByAllJobsRejectedIncluded) {
  const ScheduleMetrics m = compute_metrics(four_jobs(), 4);
  EXPECT_DOUBLE_EQ(m.mean_waiting_time, 3.75);     // (0 + 5 + 10) / 4
  EXPECT_DOUBLE_EQ(m.mean_turnaround_time, 15.0);  // (20 + 10 + 30) / 4
  EXPECT_DOUBLE_EQ(m.mean_slowdown, 1.125);        // (20/20 + 10/5 + 30/20) / 4 = 4.5 / 4
  EXPECT_DOUBLE_EQ(m.max_waiting_time, 10.0);      // c
  EXPECT_DOUBLE_EQ(m.max_turnaround_time, 30.0);   // c
  EXPECT_DOUBLE_EQ(m.max_slowdown, 2.0);           // b: 10 / 5
}

TEST(Metrics, BoundedSlowdownAndExecutedWaitDivideByExecutedJobs) {
  const ScheduleMetrics m = compute_metrics(four_jobs(), 4);
  EXPECT_DOUBLE_EQ(m.mean_waiting_time_executed, 5.0);  // (0 + 5 + 10) / 3
  // max(1, turnaround / max(run, 10 s)): a 20/20 = 1; b 10/10 = 1 (its 5 s run counts as
  // 10 s, so its slowdown 2 is bounded to 1); c 30/20 = 1.5. (1 + 1 + 1.5) / 3 = 3.5 / 3.
  EXPECT_DOUBLE_EQ(m.mean_bounded_slowdown, 3.5 / 3);
}

TEST(Metrics, NoJobsGiveZeros) {
  const ScheduleMetrics m = compute_metrics({}, 4);
  EXPECT_EQ(m.jobs, 0);
  EXPECT_EQ(m.makespan, 0);
  EXPECT_DOUBLE_EQ(m.utilization, 0.0);
  EXPECT_DOUBLE_EQ(m.mean_bounded_slowdown, 0.0);
}

TEST(Metrics, OnlyRejectedJobsLeaveTheExecutedMeansAtZero) {
  // d alone: one job, none executed, so nothing ran and nothing is divided by zero.
  const ScheduleMetrics m = compute_metrics({rejected(submitted("d", from_seconds(2), 8), "x")}, 4);
  EXPECT_EQ(m.jobs, 1);
  EXPECT_EQ(m.jobs_rejected, 1);
  EXPECT_EQ(m.makespan, 0);
  EXPECT_DOUBLE_EQ(m.mean_waiting_time, 0.0);
  EXPECT_DOUBLE_EQ(m.mean_waiting_time_executed, 0.0);
  EXPECT_DOUBLE_EQ(m.utilization, 0.0);
}

// The accumulator a streamed run uses, fed job by job as jobs end: after each job its metrics
// are those of the jobs so far, derived by hand from the table above.
TEST(MetricsAccumulator, EachJobUpdatesTheRunningFigures) {
  const std::vector<JobRecord> jobs = four_jobs();
  MetricsAccumulator accumulator;
  accumulator.add(jobs[1]);  // b: submit 5, wait 5, run 5 on 1 machine, walltime reached
  ScheduleMetrics m = accumulator.metrics(4);
  EXPECT_EQ(m.first_submit, from_seconds(5));
  EXPECT_EQ(m.makespan, from_seconds(15));
  EXPECT_DOUBLE_EQ(m.busy_node_seconds, 5.0);
  EXPECT_DOUBLE_EQ(m.utilization, 5.0 / (4 * 10.0));  // span 15 - 5
  EXPECT_DOUBLE_EQ(m.mean_bounded_slowdown, 1.0);     // max(1, 10 / max(5, 10))
  accumulator.add(jobs[3]);                           // d: rejected, submitted at 2
  m = accumulator.metrics(4);
  EXPECT_EQ(m.first_submit, from_seconds(2));  // rejected jobs count here
  EXPECT_EQ(m.jobs, 2);
  EXPECT_DOUBLE_EQ(m.mean_waiting_time, 2.5);           // 5 / 2 jobs, d included
  EXPECT_DOUBLE_EQ(m.mean_waiting_time_executed, 5.0);  // 5 / 1 executed job
  EXPECT_DOUBLE_EQ(m.utilization, 5.0 / (4 * 13.0));    // span 15 - 2
  accumulator.add(jobs[0]);                             // a: 0-20 on 2 machines
  accumulator.add(jobs[2]);                             // c: 20-40 on 4 machines
  m = accumulator.metrics(4);
  EXPECT_EQ(m.first_submit, 0);
  EXPECT_EQ(m.makespan, from_seconds(40));
  EXPECT_DOUBLE_EQ(m.busy_node_seconds, 125.0);
  EXPECT_DOUBLE_EQ(m.mean_slowdown, 1.125);  // (2 + 1 + 1.5) / 4
  EXPECT_DOUBLE_EQ(m.max_slowdown, 2.0);
  EXPECT_EQ(m.jobs_walltime_reached, 1);
  EXPECT_EQ(m.jobs_failed, 1);
}

TEST(MetricsAccumulator, GivesWhatComputeMetricsGivesInTheSameOrder) {
  MetricsAccumulator accumulator;
  for (const JobRecord& job : four_jobs()) accumulator.add(job);
  const ScheduleMetrics streamed = accumulator.metrics(4);
  const ScheduleMetrics whole = compute_metrics(four_jobs(), 4);
  EXPECT_EQ(streamed.jobs_executed, whole.jobs_executed);
  EXPECT_EQ(streamed.makespan, whole.makespan);
  EXPECT_EQ(streamed.mean_waiting_time, whole.mean_waiting_time);
  EXPECT_EQ(streamed.mean_bounded_slowdown, whole.mean_bounded_slowdown);
  EXPECT_EQ(streamed.utilization, whole.utilization);
}

}  // namespace
}  // namespace batfill::simulator
