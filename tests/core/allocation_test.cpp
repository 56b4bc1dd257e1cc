// Contiguous allocation picks the lowest free block long enough, else the lowest ids; and the
// choice of machines never changes which jobs start when (machine_pool.hpp).

#include "batfill/core/machine_pool.hpp"

#include <gtest/gtest.h>

#include <random>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

// 10 machines; 0-1 and 4-9 free after taking 2-3.
MachinePool pool_with_hole() {
  MachinePool pool(10);
  const MachineSet first_four = pool.allocate(4, AllocationRule::kLowest);
  pool.release(first_four);
  pool.allocate(2, AllocationRule::kLowest);  // 0-1
  pool.allocate(2, AllocationRule::kLowest);  // 2-3
  pool.release(machine_range(0, 1));
  return pool;
}

TEST(Allocation, ContiguousTakesTheLowestLongEnoughBlock) {
  MachinePool pool = pool_with_hole();
  EXPECT_EQ(to_string(pool.allocate(3, AllocationRule::kContiguous)), "4-6");
  EXPECT_EQ(to_string(pool.allocate(2, AllocationRule::kContiguous)), "0-1");  // fits the hole
}

TEST(Allocation, ContiguousFallsBackToLowestIds) {
  MachinePool pool = pool_with_hole();
  pool.allocate(1, AllocationRule::kContiguous);  // 0: the lowest block of one
  pool.mark_unavailable(machine_range(7, 7));     // free: 1, 4-6, 8-9
  EXPECT_EQ(to_string(pool.allocate(5, AllocationRule::kContiguous)), "1 4-6 8");
}

TEST(Allocation, LowestTakesTheLowestIds) {
  MachinePool pool = pool_with_hole();
  EXPECT_EQ(to_string(pool.allocate(3, AllocationRule::kLowest)), "0-1 4");
}

// Random workloads (fixed seeds), every policy: same start times under every rule.
TEST(Allocation, RuleNeverChangesStartTimes) {
  std::size_t placements_differ = 0;
  for (const PolicyInfo& policy : registered_policies()) {
    for (unsigned seed = 1; seed <= 100; ++seed) {
      std::mt19937 random(seed);
      auto uniform = [&](int low, int high) {
        return std::uniform_int_distribution<int>(low, high)(random);
      };
      const int machines = uniform(4, 16);
      std::vector<testing::TraceJob> trace;
      for (int i = 0; i < 20; ++i) {
        testing::TraceJob t;
        t.job.id = std::to_string(i);
        t.job.submit_time = from_seconds(uniform(0, 100));
        t.job.nodes = uniform(1, machines);
        t.job.time_limit = from_seconds(uniform(1, 60));
        t.runtime = from_seconds(uniform(0, 60));
        trace.push_back(t);
      }
      SchedulerOptions contiguous;
      contiguous.allocation = AllocationRule::kContiguous;
      const auto lowest = testing::replay(trace, machines, policy.name);
      const auto blocks = testing::replay(trace, machines, policy.name, contiguous);
      EXPECT_EQ(lowest.start, blocks.start) << policy.name << " seed " << seed;
      SchedulerOptions drawn;
      drawn.allocation = AllocationRule::kRandom;
      EXPECT_EQ(lowest.start, testing::replay(trace, machines, policy.name, drawn).start)
          << policy.name << " seed " << seed << ", random";
      placements_differ += lowest.machines != blocks.machines ? 1 : 0;
    }
  }
  EXPECT_GT(placements_differ, 10u);  // the rule did pick other machines (34 of 500 runs)
}

}  // namespace
}  // namespace batfill
