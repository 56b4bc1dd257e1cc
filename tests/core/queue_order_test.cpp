// Queue orders on hand-built jobs; each expectation follows from the order's definition in
// queue_order.cpp, and ties always fall back to submission time, then id.

#include "batfill/core/queue_order.hpp"

#include <gtest/gtest.h>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

Job job(const char* id, long submit_s, int nodes, long limit_s) {
  Job j;
  j.id = id;
  j.submit_time = from_seconds(submit_s);
  j.nodes = nodes;
  j.time_limit = from_seconds(limit_s);
  return j;
}

bool before(const char* order, const Job& a, const Job& b, long now_s = 0) {
  return queued_before(parse_queue_order(order), a, b, from_seconds(now_s));
}

TEST(QueueOrder, EveryNameParsesAndPrintsBack) {
  for (const std::string& name : queue_order_names()) {
    EXPECT_EQ(to_string(parse_queue_order(name)), name);
  }
  EXPECT_EQ(queue_order_names().size(), 8u);
  EXPECT_THROW(parse_queue_order("sjf"), std::invalid_argument);
}

TEST(QueueOrder, StaticKeys) {
  const Job early_big_long = job("1", 0, 8, 100);
  const Job late_small_short = job("2", 5, 2, 10);
  EXPECT_TRUE(before("fcfs", early_big_long, late_small_short));
  EXPECT_TRUE(before("lcfs", late_small_short, early_big_long));
  EXPECT_TRUE(before("asc_walltime", late_small_short, early_big_long));
  EXPECT_TRUE(before("desc_walltime", early_big_long, late_small_short));
  EXPECT_TRUE(before("asc_size", late_small_short, early_big_long));
  EXPECT_TRUE(before("desc_size", early_big_long, late_small_short));
}

TEST(QueueOrder, TiesFallBackToSubmissionThenId) {
  const Job a = job("w0!9", 0, 4, 100);
  const Job b = job("w0!10", 0, 4, 100);  // same key everywhere, numerically later id
  const Job c = job("w0!1", 3, 4, 100);   // same size and limit, submitted later
  for (const std::string& order : queue_order_names()) {
    EXPECT_TRUE(before(order.c_str(), a, b)) << order;
    EXPECT_FALSE(before(order.c_str(), b, a)) << order;
    if (order != "lcfs") EXPECT_TRUE(before(order.c_str(), a, c, 10)) << order;
  }
  EXPECT_TRUE(before("lcfs", c, a));
}

// Slowdown (wait + limit) / limit. A: submitted 0, limit 100 s. B: submitted 55, limit 10 s.
// At 60: A = 160/100 = 1.6, B = 15/10 = 1.5, A first. At 100: A = 2.0, B = 55/10 = 5.5, B first.
TEST(QueueOrder, SlowdownChangesWithTime) {
  const Job a = job("a", 0, 1, 100);
  const Job b = job("b", 55, 1, 10);
  EXPECT_TRUE(depends_on_time(QueueOrder::kDescSlowdown));
  EXPECT_TRUE(depends_on_time(QueueOrder::kDescBoundedSlowdown));
  EXPECT_FALSE(depends_on_time(QueueOrder::kAscSize));
  EXPECT_TRUE(before("desc_slowdown", a, b, 60));
  EXPECT_TRUE(before("desc_slowdown", b, a, 100));
}

// Both submitted at 0, seen at 10. Slowdown: A (1 s) = 11/1 = 11, B (5 s) = 15/5 = 3: A first.
// Bounded with 10 s: A = (10 + 1) / 10 = 1.1, B = (10 + 5) / 10 = 1.5: B first.
TEST(QueueOrder, BoundedSlowdownDampsVeryShortJobs) {
  const Job a = job("a", 0, 1, 1);
  const Job b = job("b", 0, 1, 5);
  EXPECT_TRUE(before("desc_slowdown", a, b, 10));
  EXPECT_TRUE(before("desc_bounded_slowdown", b, a, 10));
}

// Through the Scheduler, 10 nodes, plain FCFS policy so only the order decides: job 0 holds all
// nodes until 100; job 1 (6 nodes) and job 2 (5 nodes) cannot run together. FCFS runs job 1
// first (at 100, job 2 at 200); asc_size runs the smaller job 2 first (job 1 at 200).
TEST(QueueOrder, SchedulerFollowsTheOrder) {
  const auto trace = testing::trace_in_seconds({{0, 10, 100}, {1, 6, 100}, {2, 5, 100}});
  const auto fcfs = testing::replay(trace, 10, "none");
  EXPECT_EQ(fcfs.start.at("1"), from_seconds(100));
  EXPECT_EQ(fcfs.start.at("2"), from_seconds(200));
  SchedulerOptions options;
  options.order = QueueOrder::kAscSize;
  const auto smallest_first = testing::replay(trace, 10, "none", options);
  EXPECT_EQ(smallest_first.start.at("2"), from_seconds(100));
  EXPECT_EQ(smallest_first.start.at("1"), from_seconds(200));
}

// The Scheduler re-sorts time-dependent orders at each pass. 10 nodes, policy "none": job 0
// holds all nodes until 100. Job 1 (limit 1000 s) is submitted at 0, job 2 (limit 10 s) at 50.
// At 100: job 1 = (100 + 1000)/1000 = 1.1, job 2 = (50 + 10)/10 = 6: job 2 first, although at
// its submission (50) job 1's 1.05 vs job 2's 1.0 put it second.
TEST(QueueOrder, SchedulerResortsSlowdownAtEachPass) {
  const auto trace = testing::trace_in_seconds({{0, 10, 100}, {0, 10, 1000}, {50, 10, 10}});
  SchedulerOptions options;
  options.order = QueueOrder::kDescSlowdown;
  const auto result = testing::replay(trace, 10, "none", options);
  EXPECT_EQ(result.start.at("2"), from_seconds(100));
  EXPECT_EQ(result.start.at("1"), from_seconds(110));
}

}  // namespace
}  // namespace batfill
