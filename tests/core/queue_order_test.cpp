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
  EXPECT_EQ(queue_order_names().size(), 16u);
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

// WFP3, (wait / walltime)^3 * nodes, largest first. A: submitted 0, 1 node, 100 s. B: submitted
// 50, 8 nodes, 10 s. At 50: A = 0.5^3 = 0.125, B = 0: A first. At 100: A = 1, B = 5^3 * 8 = 1000.
TEST(QueueOrder, Wfp3GrowsWithTheWait) {
  const Job a = job("a", 0, 1, 100);
  const Job b = job("b", 50, 8, 10);
  EXPECT_TRUE(depends_on_time(QueueOrder::kWfp3));
  EXPECT_TRUE(before("wfp3", a, b, 50));
  EXPECT_TRUE(before("wfp3", b, a, 100));
}

// UNICEP, wait / (log2(nodes) * walltime), largest first. At 100, all submitted at 0: A (2 nodes,
// 100 s) = 100 / 100 = 1, B (4 nodes, 10 s) = 100 / 20 = 5: B first. C (1 node, 1000 s): log2(1)
// is 0, kept from dividing by zero by 1e-15: about 7e13, first of all.
TEST(QueueOrder, UnicepFavoursNarrowShortWaitingJobs) {
  const Job a = job("a", 0, 2, 100);
  const Job b = job("b", 0, 4, 10);
  const Job c = job("c", 0, 1, 1000);
  EXPECT_TRUE(depends_on_time(QueueOrder::kUnicep));
  EXPECT_TRUE(before("unicep", b, a, 100));
  EXPECT_TRUE(before("unicep", c, b, 100));
}

// RLScheduler's WFP3 and UNICEP take the waiting time as -1 - submit (s), whatever the time:
// WFP3 sorts by ((1 + s) / r)^3 * n, smallest first; UNICEP by (1 + s) / (log2(n) * r).
// A: s 9, 1 node, 10 s -> WFP3 1. B: s 19, 1 node, 10 s -> 8. C: s 9, 2 nodes, 10 s -> 2.
// UNICEP: C = 10 / (1 * 10) = 1; D: s 9, 4 nodes, 10 s = 10 / 20 = 0.5.
TEST(QueueOrder, RlschedulerWaitIsFixedAtSubmission) {
  const Job a = job("a", 9, 1, 10);
  const Job b = job("b", 19, 1, 10);
  const Job c = job("c", 9, 2, 10);
  const Job d = job("d", 9, 4, 10);
  EXPECT_FALSE(depends_on_time(QueueOrder::kWfp3Rlscheduler));
  EXPECT_FALSE(depends_on_time(QueueOrder::kUnicepRlscheduler));
  for (const long now : {19L, 1000L}) {
    EXPECT_TRUE(before("wfp3_rlscheduler", a, b, now));
    EXPECT_TRUE(before("wfp3_rlscheduler", a, c, now));
    EXPECT_TRUE(before("wfp3_rlscheduler", c, b, now));
    EXPECT_TRUE(before("unicep_rlscheduler", d, c, now));
  }
}

// Carastan-Santos and de Camargo's F1 to F4 (r walltime, n nodes, s submission, in s), smallest
// first. F1 = log10(r) n + 870 log10(s): A (10 s, 1, at 10) = 871 < B (100 s, 1, at 10) = 872.
// F2 = sqrt(r) n + 25600 log10(s): C (4 s, 2 nodes, at 10) = 4 + 25600 < B = 10 + 25600.
// F3 = r n + 6860000 log10(s): B = 100 + ... < D (40 s, 3 nodes, at 10) = 120 + ...
// F4 = r sqrt(n) + 530000 log10(s): E (150 s, 1, at 10) = 150 + ... < F (100 s, 4, at 10) = 200.
TEST(QueueOrder, CarastanSantosFunctions) {
  const Job a = job("a", 10, 1, 10);
  const Job b = job("b", 10, 1, 100);
  const Job c = job("c", 10, 2, 4);
  const Job d = job("d", 10, 3, 40);
  const Job e = job("e", 10, 1, 150);
  const Job f = job("f", 10, 4, 100);
  EXPECT_TRUE(before("f1", a, b));
  EXPECT_TRUE(before("f2", c, b));
  EXPECT_TRUE(before("f3", b, d));
  EXPECT_TRUE(before("f4", e, f));
  EXPECT_FALSE(before("f4", f, e));
  // A later submission weighs: at 100 s instead of 10 s, F1 adds 870.
  EXPECT_TRUE(before("f1", b, job("g", 100, 1, 10)));
}

TEST(QueueOrder, ScoreOrdersPutJobsWithoutWalltimeLast) {
  Job unlimited = job("1", 0, 1, 10);
  unlimited.time_limit = kNoTimeLimit;
  const Job limited = job("2", 5, 64, 100000);
  for (const char* order :
       {"wfp3", "unicep", "wfp3_rlscheduler", "unicep_rlscheduler", "f1", "f2", "f3", "f4"}) {
    EXPECT_TRUE(before(order, limited, unlimited, 10)) << order;
    EXPECT_FALSE(before(order, unlimited, limited, 10)) << order;
  }
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
