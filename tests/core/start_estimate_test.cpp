// Scheduler::estimate_start: exact for conservative-classic, a conservative plan of the queue
// for the others. 100 nodes; job 0 (50 nodes) runs [0,100), job 1 (60 nodes) waits for it.

#include <gtest/gtest.h>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

Job job(const char* id, int nodes, long limit_s, long submit_s = 0) {
  Job j;
  j.id = id;
  j.submit_time = from_seconds(submit_s);
  j.nodes = nodes;
  j.time_limit = limit_s < 0 ? kNoTimeLimit : from_seconds(limit_s);
  return j;
}

Scheduler blocked_head(const std::string& policy) {
  Scheduler scheduler(100, make_policy(policy));
  testing::run_instant(scheduler, 0, {}, {job("0", 50, 100), job("1", 60, 100)});
  return scheduler;
}

// Job 1 holds [100,200) with 60 nodes. A 40-node, 150 s job fits beside both: 50 free in
// [0,100), 40 in [100,200): slot 0. A 60-node job only fits after job 1: slot 200.
TEST(StartEstimate, ConservativeClassicGivesTheSlotTheJobWouldGet) {
  Scheduler scheduler = blocked_head("conservative-classic");
  EXPECT_EQ(scheduler.estimate_start(job("x", 40, 150), 0), 0);
  EXPECT_EQ(scheduler.estimate_start(job("y", 60, 100), 0), from_seconds(200));
  EXPECT_EQ(scheduler.estimate_start(job("z", 41, 150), 0), from_seconds(200));
  // Asking changes nothing: the job submitted now gets exactly that slot and starts at once.
  const auto decisions = testing::run_instant(scheduler, 0, {}, {job("x", 40, 150)});
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_EQ(decisions[0].job_id, "x");
}

// After an early completion the estimate reflects the compression the next pass would do:
// job 0 ends at 30, so job 1 moves to 30 and a 60-node job fits after it at 130.
TEST(StartEstimate, ConservativeClassicSeesPendingCompression) {
  Scheduler scheduler = blocked_head("conservative-classic");
  scheduler.complete("0", from_seconds(30));
  EXPECT_EQ(scheduler.estimate_start(job("y", 60, 100), from_seconds(30)), from_seconds(130));
}

// The other policies plan the queue in order: the same slots here. For spec EASY the 40-node
// job would really wait (it ends at 150, after the head's reservation at 100): an estimate.
TEST(StartEstimate, OtherPoliciesPlanTheQueueInOrder) {
  for (const char* policy : {"easy", "conservative", "easy-classic"}) {
    Scheduler scheduler = blocked_head(policy);
    EXPECT_EQ(scheduler.estimate_start(job("x", 40, 150), 0), 0) << policy;
    EXPECT_EQ(scheduler.estimate_start(job("y", 60, 100), 0), from_seconds(200)) << policy;
  }
}

// Plain FCFS never lets a job overtake: the 40-node job starts no earlier than job 1, at 100.
TEST(StartEstimate, FcfsNeverOvertakes) {
  Scheduler scheduler = blocked_head("none");
  EXPECT_EQ(scheduler.estimate_start(job("x", 40, 150), 0), from_seconds(100));
  EXPECT_EQ(scheduler.estimate_start(job("y", 60, 100), 0), from_seconds(200));
}

TEST(StartEstimate, NeverForJobsThatCanNeverRun) {
  for (const PolicyInfo& policy : registered_policies()) {
    Scheduler scheduler = blocked_head(policy.name);
    EXPECT_EQ(scheduler.estimate_start(job("big", 101, 10), 0), kNever) << policy.name;
    EXPECT_EQ(scheduler.estimate_start(job("none", 0, 10), 0), kNever) << policy.name;
  }
}

// A job without a limit never backfills (docs/semantics.md#queues---queues): behind job 1, reserved
// from 100, it starts no earlier; from 100 it finds 40 nodes free for ever (job 1 takes 60 until
// 200, then all 100 are free): conservative-classic's estimate is 100.
TEST(StartEstimate, ConservativeClassicPlansAJobWithoutLimitAfterTheReservationsAhead) {
  EXPECT_EQ(blocked_head("conservative-classic").estimate_start(job("nolimit", 1, -1), 0),
            from_seconds(100));
}

// The estimate is computed after the queue's own order: a job that the order puts ahead of the
// waiting job 1 is planned before it. asc_size: a 10-node, 500 s job goes ahead of job 1 and
// fits at 0 beside job 0; under FCFS it would come after job 1 and still fit at 0 (hole).
TEST(StartEstimate, FollowsTheQueueOrder) {
  SchedulerOptions options;
  options.order = QueueOrder::kAscSize;
  Scheduler scheduler(100, make_policy("none"), options);
  testing::run_instant(scheduler, 0, {}, {job("0", 50, 100), job("1", 60, 100)});
  // FCFS policy with asc_size: the 10-node job is ahead of job 1, so nothing blocks it.
  EXPECT_EQ(scheduler.estimate_start(job("x", 10, 500), 0), 0);
  EXPECT_EQ(blocked_head("none").estimate_start(job("x", 10, 500), 0), from_seconds(100));
}

}  // namespace
}  // namespace batfill
