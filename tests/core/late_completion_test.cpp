// conservative-classic and completions reported after the planned end
// (docs/semantics.md#conservative-classic--feitelson--weil-1998; a real Batsim reports a walltime
// kill a few microseconds late, docs/protocol.md#quirks-of-a-real-batsim-421 (messaging latency)).
// The Scheduler is driven instant by instant at microsecond times, as `serve` drives it. Every
// expected start below is derived by hand from the rules of
// docs/semantics.md#conservative-classic--feitelson--weil-1998.

#include <gtest/gtest.h>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

using testing::run_instant;

constexpr Time kMicro = 1;

Job job(const std::string& id, int nodes, long limit_s, Time submit) {
  Job j;
  j.id = id;
  j.submit_time = submit;
  j.nodes = nodes;
  j.time_limit = from_seconds(limit_s);
  return j;
}

// The ids of the jobs a pass started, in start order.
std::vector<JobId> started(const std::vector<Decision>& decisions) {
  std::vector<JobId> ids;
  for (const Decision& decision : decisions) {
    if (decision.kind == Decision::Kind::kExecute) ids.push_back(decision.job_id);
  }
  return ids;
}

using Ids = std::vector<JobId>;

// 10 nodes. At 0, A (10 nodes, 11 s) starts: planned end 11. At 1, H (10 nodes, 100 s) gets
// [11, 111). At 11, B (5 nodes, 10,000 s) comes: H fills [11, 111), so B gets [111, 10111).
// A has not been reported yet at 11: H is due but its nodes are busy, nothing starts.
// A is reported at 11.000002. H is due and now fits: it starts at that report. B keeps 111 and
// does not start in H's place. H, started 2 µs late, is planned as if started at 11, until 111;
// at 111 B is due but H still holds its nodes, so B starts at H's report, 111.000002.
TEST(LateCompletion, HeadStartsAtTheLateReportAndNobodyTakesItsPlace) {
  Scheduler scheduler(10, make_policy("conservative-classic"));
  EXPECT_EQ(started(run_instant(scheduler, 0, {}, {job("A", 10, 11, 0)})), Ids{"A"});
  EXPECT_EQ(
      started(run_instant(scheduler, from_seconds(1), {}, {job("H", 10, 100, from_seconds(1))})),
      Ids{});
  const Time eleven = from_seconds(11);
  EXPECT_EQ(started(run_instant(scheduler, eleven, {}, {job("B", 5, 10000, eleven)})), Ids{});
  EXPECT_EQ(started(run_instant(scheduler, eleven + 2 * kMicro, {"A"}, {})), Ids{"H"});
  EXPECT_EQ(started(run_instant(scheduler, from_seconds(111), {}, {})), Ids{});
  EXPECT_EQ(started(run_instant(scheduler, from_seconds(111) + 2 * kMicro, {"H"}, {})), Ids{"B"});
}

// 10 nodes. At 0, A (6 nodes, 11 s) and E (4 nodes, 50 s) start. At 1, H (6 nodes, 100 s) gets
// A's nodes, [11, 111). At 2, B (5 nodes, 10,000 s) finds 4 nodes free in [50, 111) (E gone, H
// holding 6), too few, and gets [111, 10111). At 11.000002 one message reports A, 2 µs late,
// and E, early. E's rectangle [11.000002, 50) comes back, so compression runs: H is due and
// keeps its slot; B still finds only 4 nodes beside H before 111 and stays. H starts now. B is
// due at 111 and starts at H's report, 111.000004 (H ran its 100 s, reported 2 µs late).
TEST(LateCompletion, LateAndEarlyCompletionsInOneMessage) {
  Scheduler scheduler(10, make_policy("conservative-classic"));
  EXPECT_EQ(started(run_instant(scheduler, 0, {}, {job("A", 6, 11, 0), job("E", 4, 50, 0)})),
            (Ids{"A", "E"}));
  EXPECT_EQ(
      started(run_instant(scheduler, from_seconds(1), {}, {job("H", 6, 100, from_seconds(1))})),
      Ids{});
  EXPECT_EQ(
      started(run_instant(scheduler, from_seconds(2), {}, {job("B", 5, 10000, from_seconds(2))})),
      Ids{});
  const Time report = from_seconds(11) + 2 * kMicro;
  EXPECT_EQ(started(run_instant(scheduler, report, {"A", "E"}, {})), Ids{"H"});
  EXPECT_EQ(scheduler.waiting_count(), 1u);
  EXPECT_EQ(started(run_instant(scheduler, from_seconds(111) + 4 * kMicro, {"H"}, {})), Ids{"B"});
  EXPECT_EQ(scheduler.waiting_count(), 0u);
}

// A job started late is planned as if it had started at its slot, so the plan never holds more
// than the machine. 10 nodes: A (4 nodes, 10 s) and C (6 nodes, 30 s) run from 0; D (4 nodes,
// 20 s) gets A's nodes, [10, 30). A is reported at 10.000003: D starts then, planned in [10, 30)
// still. At 20 F (7 nodes, 5 s) comes and gets [30, 35), when C and D are planned to end. At 30
// C is reported; F is due but D, really ending at 30.000003, holds 4 nodes: F starts at D's
// report.
TEST(LateCompletion, ALateStartIsPlannedFromItsSlot) {
  Scheduler scheduler(10, make_policy("conservative-classic"));
  EXPECT_EQ(started(run_instant(scheduler, 0, {},
                                {job("A", 4, 10, 0), job("C", 6, 30, 0), job("D", 4, 20, 0)})),
            (Ids{"A", "C"}));
  EXPECT_EQ(started(run_instant(scheduler, from_seconds(10) + 3 * kMicro, {"A"}, {})), Ids{"D"});
  EXPECT_EQ(scheduler.estimate_start(job("G", 7, 5, from_seconds(20)), from_seconds(20)),
            from_seconds(30));
  EXPECT_EQ(
      started(run_instant(scheduler, from_seconds(20), {}, {job("F", 7, 5, from_seconds(20))})),
      Ids{});
  EXPECT_EQ(started(run_instant(scheduler, from_seconds(30), {"C"}, {})), Ids{});
  EXPECT_EQ(started(run_instant(scheduler, from_seconds(30) + 3 * kMicro, {"D"}, {})), Ids{"F"});
}

// A late start does not block a later compression. 10 nodes: at 0, C (6 nodes, 100 s) and A
// (4 nodes, 10 s) start; D (4 nodes, 20 s) gets [10, 30), X (4 nodes, 100 s) [30, 130) after
// it, and R (6 nodes, 50 s) [100, 150), when C is planned to end (X holds 4 of the 10). A is
// reported at 10.000003 and D starts, planned in [10, 30). At 20 C ends early: R finds 6 nodes
// in [20, 70) beside D, then beside X, moves to 20 and starts. (Held from 10.000003, D would
// overlap X in [30, 30.000003), where the plan would lack 4 nodes and R would not fit.)
TEST(LateCompletion, ALateStartDoesNotBlockCompression) {
  Scheduler scheduler(10, make_policy("conservative-classic"));
  EXPECT_EQ(started(run_instant(scheduler, 0, {},
                                {job("A", 4, 10, 0), job("C", 6, 100, 0), job("D", 4, 20, 0),
                                 job("R", 6, 50, 0), job("X", 4, 100, 0)})),
            (Ids{"A", "C"}));
  EXPECT_EQ(started(run_instant(scheduler, from_seconds(10) + 3 * kMicro, {"A"}, {})), Ids{"D"});
  EXPECT_EQ(started(run_instant(scheduler, from_seconds(20), {"C"}, {})), Ids{"R"});
}

}  // namespace
}  // namespace batfill
