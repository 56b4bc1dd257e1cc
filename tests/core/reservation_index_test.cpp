// The reservation index of classic conservative backfilling: its queries against what its
// entries say, read by hand, and check_invariants() after every kind of change.

#include "conservative/reservation_index.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <stdexcept>
#include <vector>

namespace batfill {
namespace {

Job job_of(const char* id, int nodes) {
  Job job;
  job.id = id;
  job.nodes = nodes;
  job.time_limit = from_seconds(100);
  return job;
}

Reservation slot_at(int start_seconds) {
  return {from_seconds(start_seconds), from_seconds(start_seconds + 100), 0};
}

TEST(ReservationIndex, NewJobsAreVisitedFirstAndPlannedOnesWhenTheirSlotComes) {
  const Job a = job_of("a", 4), b = job_of("b", 2), c = job_of("c", 8);
  ReservationIndex index;
  index.queue(a, 0);
  index.queue(b, 1);
  index.queue(c, 2);
  index.check_invariants();  // appended at once: nothing to settle
  // Nothing planned: every reserving entry is to be placed, none is movable.
  EXPECT_EQ(index.first_to_visit(0, 0), 0u);
  EXPECT_EQ(index.first_movable(0, 100), ReservationIndex::kNone);
  EXPECT_EQ(index.latest_start_before(3), kBeforeAll);

  index.plan(0, slot_at(50), /*backfills=*/false);
  index.plan(1, slot_at(10), /*backfills=*/true);
  index.plan(2, slot_at(30), /*backfills=*/true);
  index.check_invariants();
  EXPECT_EQ(index.first_to_visit(0, from_seconds(20)), 1u);  // b's slot at 10 has come
  EXPECT_EQ(index.first_to_visit(2, from_seconds(20)), ReservationIndex::kNone);
  EXPECT_EQ(index.latest_start_before(2), from_seconds(50));
  // a cannot backfill: always movable. b needs 2 nodes, c 8.
  EXPECT_EQ(index.first_movable(1, 1), ReservationIndex::kNone);
  EXPECT_EQ(index.first_movable(1, 2), 1u);
  EXPECT_EQ(index.first_movable(2, 7), ReservationIndex::kNone);
  EXPECT_EQ(index.first_movable(0, 0), 0u);
}

TEST(ReservationIndex, StartedEntriesStayEmptyThenGoAndInsertionsFollowTheQueue) {
  const Job a = job_of("a", 1), b = job_of("b", 1), c = job_of("c", 1), d = job_of("d", 1);
  ReservationIndex index;
  index.queue(a, 0);
  index.queue(b, 1);
  index.queue(c, 2);
  index.plan(0, slot_at(0), false);
  index.mark_started(0);
  index.check_invariants();
  EXPECT_EQ(index.size(), 3u);  // a's entry stays: b and c keep their places in the pass
  EXPECT_EQ(index[0].job, nullptr);
  // d queued at position 1 of the queue (between b and c) waits for settle(), which drops the
  // empty entry too.
  index.queue(d, 1);
  EXPECT_THROW(index.check_invariants(), std::logic_error);
  index.settle();
  index.check_invariants();
  ASSERT_EQ(index.size(), 3u);
  EXPECT_EQ(index[0].job, &b);
  EXPECT_EQ(index[1].job, &d);
  EXPECT_EQ(index[2].job, &c);
}

// Each position counts the jobs queued before it: [a b] -> c at 1 [a c b] -> d at 0 [d a c b]
// -> e at 4 [d a c b e] -> f at 2 [d a f c b e].
TEST(ReservationIndex, InsertionsSettleWhereOneAtATimeWouldPutThem) {
  const Job a = job_of("a", 1), b = job_of("b", 1), c = job_of("c", 1), d = job_of("d", 1),
            e = job_of("e", 1), f = job_of("f", 1);
  ReservationIndex index;
  index.queue(a, 0);
  index.queue(b, 1);
  index.plan(1, slot_at(40), false);
  index.queue(c, 1);
  index.queue(d, 0);
  index.queue(e, 4);
  index.queue(f, 2);
  index.settle();
  index.check_invariants();
  const std::vector<const Job*> expected = {&d, &a, &f, &c, &b, &e};
  ASSERT_EQ(index.size(), expected.size());
  for (std::size_t entry = 0; entry < expected.size(); ++entry) {
    EXPECT_EQ(index[entry].job, expected[entry]) << entry;
  }
  EXPECT_EQ(index[4].slot.start, from_seconds(40));  // b kept its slot
  EXPECT_EQ(index.latest_start_before(4), kBeforeAll);
  EXPECT_EQ(index.latest_start_before(5), from_seconds(40));
  EXPECT_EQ(index.entry_at(2), 2u);
}

TEST(ReservationIndex, ReorderingMovesEntriesWithTheirSlots) {
  const Job a = job_of("a", 1), b = job_of("b", 1), c = job_of("c", 1);
  ReservationIndex index;
  index.queue(a, 0);
  index.queue(b, 1);
  index.queue(c, 2);
  index.plan(1, slot_at(70), false);
  index.reorder({2, 1, 0});  // c, b, a
  index.check_invariants();
  EXPECT_EQ(index[0].job, &c);
  EXPECT_EQ(index[1].job, &b);
  EXPECT_EQ(index[1].slot.start, from_seconds(70));
  EXPECT_EQ(index.latest_start_before(1), kBeforeAll);
  EXPECT_EQ(index.latest_start_before(2), from_seconds(70));
  index.unplan_all();
  index.check_invariants();
  EXPECT_EQ(index.latest_start_before(3), kBeforeAll);
}

TEST(ReservationIndex, AnEntryWithoutAReservationIsNotVisitedToBePlaced) {
  const Job a = job_of("a", 1);
  ReservationIndex index;
  index.queue(a, 0);
  index.set_reserving(0, false);
  index.check_invariants();
  EXPECT_EQ(index.first_to_visit(0, kNever - 1), ReservationIndex::kNone);
  index.set_reserving(0, true);
  EXPECT_EQ(index.first_to_visit(0, 0), 0u);
}

}  // namespace
}  // namespace batfill
