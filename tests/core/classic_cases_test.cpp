// Hand-derived cases for the classic policies' own rules (compression, holes, extra nodes);
// the table of docs/semantics.md#hand-cases for all four policies is in semantics_table_test.cpp.

#include <gtest/gtest.h>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

using testing::trace_in_seconds;
using testing::TraceJob;

// Hand derivation, 10 nodes. At 0: job 0 (6 nodes) runs [0,100), job 1 (4) runs [0,50), job 2
// (10) is planned at [100,200). At 10: job 3 (4 nodes, 50 s) gets [50,100) beside job 0.
// At 20 job 0 ends early and compression runs in queue order: job 2 still finds no 10 free
// nodes before 100 (job 1 until 50, job 3 in [50,100)) and stays; job 3 moves to 20 and starts.
// At 50 job 1 ends: compression moves job 2 to 70, when job 3 (ends 70) has gone.
// A rebuild from scratch at 20 would instead plan job 2 at 50 and push job 3 from 50 to 150.
TEST(ConservativeClassic, CompressionKeepsOtherReservationsInPlace) {
  std::vector<TraceJob> trace =
      trace_in_seconds({{0, 6, 100, 20}, {0, 4, 50}, {0, 10, 100}, {10, 4, 50}});
  const testing::ReplayResult result = testing::replay(trace, 10, "conservative-classic");
  EXPECT_EQ(result.start.at("3"), from_seconds(20));
  EXPECT_EQ(result.start.at("2"), from_seconds(70));
}

// docs/semantics.md#easy-classic--lifkas-easy-mualem--feitelson-2001: "a job may end exactly when
// another's reservation starts". 10 nodes: job 0 (5) runs [0,100), job 1 (10) is planned at
// [100,150). Job 2 (5 nodes) fills [0,100) with a 100 s limit; one second more and the hole is too
// short, so it goes after job 1, at 150.
TEST(ConservativeClassic, SlotMayEndWhereAnotherBegins) {
  const auto fits = trace_in_seconds({{0, 5, 100}, {0, 10, 50}, {0, 5, 100}});
  EXPECT_EQ(testing::replay(fits, 10, "conservative-classic").start.at("2"), 0);
  const auto too_long = trace_in_seconds({{0, 5, 100}, {0, 10, 50}, {0, 5, 101}});
  EXPECT_EQ(testing::replay(too_long, 10, "conservative-classic").start.at("2"), from_seconds(150));
}

// Each job's first reservation is reported once, by the pass that made it (docs/semantics.md
// docs/semantics.md#conservative-classic--feitelson--weil-1998). 10 nodes: at 0, job 0 (6 nodes,
// 100 s) starts and job 1 (10 nodes) is reserved from 100. At 20 job 0 ends early and job 1 moves
// to 20 and starts: it had its promise already.
TEST(ConservativeClassic, FirstReservationsAreReportedOnce) {
  Scheduler scheduler(10, make_policy("conservative-classic"));
  const std::vector<TraceJob> trace = trace_in_seconds({{0, 6, 100}, {0, 10, 100}});
  testing::run_instant(scheduler, 0, {}, {trace[0].job, trace[1].job});
  const std::vector<FirstReservation> first = scheduler.take_first_reservations();
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].job_id, "0");
  EXPECT_EQ(first[0].start, 0);
  EXPECT_EQ(first[1].job_id, "1");
  EXPECT_EQ(first[1].start, from_seconds(100));
  EXPECT_TRUE(scheduler.take_first_reservations().empty());
  EXPECT_EQ(testing::run_instant(scheduler, from_seconds(20), {"0"}, {}).size(), 1u);
  EXPECT_TRUE(scheduler.take_first_reservations().empty());
}

// easy-classic, 10 nodes: job 0 (6 nodes) runs [0,100), head job 1 needs 8, shadow 100 with
// 10 free then: 2 extra nodes. Job 2 (2 nodes, 500 s) uses them; job 3 (2 nodes, 500 s) then
// fits now (2 free) but has no extra nodes left and ends after 100, so it waits for job 1.
TEST(EasyClassic, RunningPastTheShadowUsesUpExtraNodes) {
  const auto trace = trace_in_seconds({{0, 6, 100}, {0, 8, 100}, {0, 2, 500}, {0, 2, 500}});
  const testing::ReplayResult result = testing::replay(trace, 10, "easy-classic");
  EXPECT_EQ(result.start.at("2"), 0);
  EXPECT_EQ(result.start.at("1"), from_seconds(100));
  EXPECT_EQ(result.start.at("3"), from_seconds(200));
}

}  // namespace
}  // namespace batfill
