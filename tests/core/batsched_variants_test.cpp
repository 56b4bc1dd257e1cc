// Hand-derived schedules of the policies that run batsched 1.4's variants
// (docs/usage.md#batscheds-variants). Each expected value is derived below from the variant's
// rule as docs/usage.md states it, on a 4-machine cluster; machines go lowest first. The same
// workloads run beside the real batsched in tests/batsim/variants_test.cpp.

#include <gtest/gtest.h>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

using testing::trace_in_seconds;

// Rows: submit, nodes, walltime, runtime (seconds).
// easy-bf-fast. At 0: job 0 (2 nodes) and job 1 (2) start on 0-1 and 2-3; job 2 (4 nodes) becomes
// the priority job, planned at 100, when job 0's walltime ends and 4 machines are free; job 3
// (1 node) fits nowhere and waits. At 20 job 0 ends: job 2 still does not fit; job 3 would end at
// 220 > 100, so it does not backfill. At 30 job 4 (2 nodes, 70 s) arrives: 2 machines are free and
// it ends at 100 <= 100, the start planned at 0 and never planned again, so it starts on 0-1.
// At 50 job 1 ends: job 3 still ends after 100. At 100 job 4 ends: job 2 starts on 0-3, and job 3
// becomes the priority job, planned at 110; it starts then on 0.
// easy-classic plans job 2 again at 20 (4 machines free at 50) and keeps jobs 3 and 4 out.
const std::vector<testing::TraceJob> kStalePlan =
    trace_in_seconds({{0, 2, 100, 20}, {0, 2, 50, 50}, {0, 4, 10}, {0, 1, 200, 10}, {30, 2, 70}});

TEST(EasyBfFast, KeepsThePriorityJobsFirstPlan) {
  const testing::ReplayResult result = testing::replay(kStalePlan, 4, "easy-bf-fast");
  const std::map<JobId, Time> starts = {{"0", 0},
                                        {"1", 0},
                                        {"2", from_seconds(100)},
                                        {"3", from_seconds(110)},
                                        {"4", from_seconds(30)}};
  EXPECT_EQ(result.start, starts);
  EXPECT_EQ(to_string(result.machines.at("4")), "0-1");
  EXPECT_EQ(to_string(result.machines.at("2")), "0-3");
  EXPECT_EQ(to_string(result.machines.at("3")), "0");
  const testing::ReplayResult classic = testing::replay(kStalePlan, 4, "easy-classic");
  EXPECT_EQ(classic.start.at("2"), from_seconds(50));
  EXPECT_EQ(classic.start.at("4"), from_seconds(60));
}

// No extra-node rule. At 0 job 0 (2 nodes, 100 s) starts on 0-1; job 1 (3 nodes) is the priority
// job, planned at 100 (4 free then, one more than it needs); job 2 (1 node, 500 s) fits but ends
// after 100, so it waits, although easy-classic starts it on the extra node. At 100 job 0 ends:
// job 1 starts on 0-2, then job 2, which fits, on 3.
const std::vector<testing::TraceJob> kExtraNode =
    trace_in_seconds({{0, 2, 100}, {0, 3, 100, 10}, {0, 1, 500, 30}});

TEST(EasyBfFast, NeverBackfillsOnExtraNodes) {
  const testing::ReplayResult result = testing::replay(kExtraNode, 4, "easy-bf-fast");
  EXPECT_EQ(result.start,
            (std::map<JobId, Time>{{"0", 0}, {"1", from_seconds(100)}, {"2", from_seconds(100)}}));
  EXPECT_EQ(to_string(result.machines.at("1")), "0-2");
  EXPECT_EQ(to_string(result.machines.at("2")), "3");
  EXPECT_EQ(testing::replay(kExtraNode, 4, "easy-classic").start.at("2"), 0);
}

// Machines that come back are looked at as a job's end is (batsched's variant ignores them):
// with every machine unavailable, job 0 (4 nodes) becomes the priority job, planned never; once
// the machines are available again at 10, it starts.
TEST(EasyBfFast, StartsWhenMachinesComeBack) {
  Scheduler scheduler(4, make_policy("easy-bf-fast"));
  scheduler.mark_unavailable(machine_range(0, 3));
  const std::vector<testing::TraceJob> trace = trace_in_seconds({{0, 4, 100}});
  EXPECT_TRUE(testing::run_instant(scheduler, 0, {}, {trace[0].job}).empty());
  scheduler.mark_available(machine_range(0, 3));
  const std::vector<Decision> decisions = testing::run_instant(scheduler, from_seconds(10), {}, {});
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_EQ(decisions[0].job_id, "0");
}

// filler. At 0: job 0 (3 nodes) starts on 0-2; job 1 (2) does not fit in the one free machine and
// is passed over; job 2 (1) starts on 3. At 5 job 3 (2) finds none free. At 10 job 0 ends: job 1
// starts on 0-1; job 3 does not fit in machine 2. At 20 job 1 ends: job 3 starts on 0-1.
// sequential (batsched's sequencer) runs them one at a time, in queue order: 0, 10, 20, 50.
const std::vector<testing::TraceJob> kFill =
    trace_in_seconds({{0, 3, 100, 10}, {0, 2, 100, 10}, {0, 1, 100, 30}, {5, 2, 100, 10}});

TEST(Filler, StartsEveryJobThatFitsInQueueOrder) {
  const testing::ReplayResult result = testing::replay(kFill, 4, "filler");
  EXPECT_EQ(result.start,
            (std::map<JobId, Time>{
                {"0", 0}, {"1", from_seconds(10)}, {"2", 0}, {"3", from_seconds(20)}}));
  EXPECT_EQ(to_string(result.machines.at("0")), "0-2");
  EXPECT_EQ(to_string(result.machines.at("2")), "3");
  EXPECT_EQ(to_string(result.machines.at("1")), "0-1");
  EXPECT_EQ(to_string(result.machines.at("3")), "0-1");
}

TEST(Sequencer, RunsOneJobAtATime) {
  const testing::ReplayResult result = testing::replay(kFill, 4, "sequential");
  EXPECT_EQ(
      result.start,
      (std::map<JobId, Time>{
          {"0", 0}, {"1", from_seconds(10)}, {"2", from_seconds(20)}, {"3", from_seconds(50)}}));
}

// rejecter: every job is rejected at its submission, none starts, and a waiting-time estimate
// says never (batsched's waiting_time_estimator answers -1 and rejects every job).
TEST(Rejecter, RejectsEveryJob) {
  const testing::ReplayResult result = testing::replay(kFill, 4, "rejecter");
  EXPECT_TRUE(result.start.empty());
  ASSERT_EQ(result.rejected.size(), kFill.size());
  EXPECT_NE(result.rejected.at("0").text().find("rejecter"), std::string::npos);
  Scheduler scheduler(4, make_policy("rejecter"));
  EXPECT_EQ(scheduler.estimate_start(kFill[0].job, 0), kNever);
}

// random allocation (batsched's random, as filler with random machines): the same starts as
// filler, since machine ids never change when jobs start; the machines are drawn, the same ones
// in every run, and never in use by another job (each job of kFill runs beside only the ones the
// filler case above shows).
TEST(RandomAllocation, DrawsFreeMachinesReproducibly) {
  SchedulerOptions options;
  options.allocation = AllocationRule::kRandom;
  const testing::ReplayResult result = testing::replay(kFill, 4, make_policy("filler"), options);
  EXPECT_EQ(result.start, testing::replay(kFill, 4, "filler").start);
  EXPECT_EQ(result.machines, testing::replay(kFill, 4, make_policy("filler"), options).machines);
  for (const auto& [id, machines] : result.machines) {
    EXPECT_EQ(machine_count(machines), kFill[std::stoul(id)].job.nodes) << id;
  }
  // Jobs 0 and 2 run together, then 1 beside 2, then 3 beside 2.
  const auto disjoint = [&](const char* a, const char* b) {
    return (result.machines.at(a) & result.machines.at(b)).empty();
  };
  EXPECT_TRUE(disjoint("0", "2"));
  EXPECT_TRUE(disjoint("1", "2"));
  EXPECT_TRUE(disjoint("3", "2"));
}

// Over many draws every free machine is chosen: the draw is not the lowest ids in disguise.
TEST(RandomAllocation, EveryFreeMachineCanBeDrawn) {
  MachinePool pool(8);
  std::set<int> drawn;
  for (int i = 0; i < 64; ++i) {
    const MachineSet one = pool.allocate(1, AllocationRule::kRandom);
    drawn.insert(boost::icl::first(one));
    pool.release(one);
  }
  EXPECT_EQ(drawn.size(), 8u);
}

}  // namespace
}  // namespace batfill
