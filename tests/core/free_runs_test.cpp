// The runs with some number of nodes free that classic conservative backfilling's compression
// reads (docs/semantics.md#conservative-classic--feitelson--weil-1998): the earliest start they
// allow, worked out by hand on one plan, and on random plans the property compression relies
// on, checked against the profile's own search.

#include "conservative/free_runs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "conservative/reservation_index.hpp"

namespace batfill {
namespace {

// 10 nodes; free: 2 over [0, 10), 10 over [10, 20), 4 over [20, 30), 10 over [30, 35), 1 over
// [35, 50), 10 from 50 on.
AvailabilityProfile hand_plan() {
  AvailabilityProfile profile(10, 0);
  profile.reserve(0, 10, 8);
  profile.reserve(20, 30, 6);
  profile.reserve(35, 50, 9);
  return profile;
}

TEST(FreeRuns, TheFirstRunAsLongAsTheJobOrReachingItsStart) {
  const AvailabilityProfile profile = hand_plan();
  FreeRuns five(5, 0);  // runs with 5 free: [10, 20), [30, 35), [50, ...)
  EXPECT_EQ(five.earliest_start(8, 60, profile), 10);       // [10, 20) lasts 10
  EXPECT_EQ(five.earliest_start(12, 60, profile), 50);      // none lasts 12; [50, ...) reaches 60
  EXPECT_EQ(five.earliest_start(12, 45, profile), kNever);  // nothing reaches 45
  EXPECT_EQ(five.earliest_start(5, 33, profile), 10);
  EXPECT_EQ(five.earliest_start(6, 33, profile), 10);
  EXPECT_EQ(five.earliest_start(11, 33, profile), 30);      // [30, 35) reaches 33
  EXPECT_EQ(five.earliest_start(11, 30, profile), kNever);  // [30, 35) begins at 30: not before
  five.check_invariants();
  FreeRuns three(3, 0);                                      // [10, 35), [50, ...)
  EXPECT_EQ(three.earliest_start(30, 40, profile), kNever);  // 25 long, ends before 40
  EXPECT_EQ(three.earliest_start(25, 40, profile), 10);
  three.check_invariants();
}

TEST(FreeRuns, CapacityGivenBackIsReadAgainAndJoinsTheRunsAround) {
  AvailabilityProfile profile = hand_plan();
  FreeRuns five(5, 0);
  EXPECT_EQ(five.earliest_start(12, 60, profile), 50);
  profile.release(35, 50, 9);  // [30, 35) and [50, ...) become one run from 30
  five.give_back(35, 50);
  EXPECT_EQ(five.earliest_start(12, 60, profile), 30);
  profile.release(0, 10, 8);  // [0, 20) now
  five.give_back(0, 10);
  EXPECT_EQ(five.earliest_start(12, 60, profile), 0);
  five.check_invariants();
}

TEST(FreeRuns, CapacityTakenSinceLeavesALowerBound) {
  AvailabilityProfile profile = hand_plan();
  FreeRuns five(5, 0);
  EXPECT_EQ(five.earliest_start(8, 60, profile), 10);
  profile.reserve(10, 20, 8);  // [10, 20) has 2 free now: the run read stays
  EXPECT_EQ(five.earliest_start(8, 60, profile), 10);
  EXPECT_EQ(profile.earliest_fit(0, 8, 5), 50);  // the true earliest, later
}

// The property compression relies on, on random plans changed as a compression changes them
// (rectangles taken and given back, each given back told): for a rectangle at `start`, no slot
// earlier than `start` begins before earliest_start of the runs with its nodes free, or with
// fewer, and searching from there finds the slot a search from the origin finds.
TEST(FreeRuns, BoundTheEarliestMoveFromBelowOnRandomPlans) {
  std::mt19937 random(17);
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  struct Rectangle {
    Time start, duration;
    int nodes;
  };
  for (int round = 0; round < 500; ++round) {
    AvailabilityProfile profile(16, 0);
    std::vector<Rectangle> placed;
    for (int i = uniform(1, 20); i > 0; --i) {
      const Rectangle r{0, uniform(1, 80), uniform(1, 16)};
      const Time start = profile.earliest_fit(uniform(0, 50), r.duration, r.nodes);
      profile.reserve(start, start + r.duration, r.nodes);
      placed.push_back({start, r.duration, r.nodes});
    }
    std::vector<FreeRuns> runs;
    for (int nodes = 1; nodes <= 16; ++nodes) runs.emplace_back(nodes, 0);
    for (int step = 0; step < 30 && !placed.empty(); ++step) {
      const std::size_t pick =
          static_cast<std::size_t>(uniform(0, static_cast<int>(placed.size()) - 1));
      const Rectangle r = placed[pick];
      FreeRuns& of_job = runs[static_cast<std::size_t>(r.nodes - 1)];
      const Time lowest = of_job.earliest_start(r.duration, r.start, profile);
      const Time moved = profile.earliest_move(0, r.start, r.duration, r.nodes);
      if (lowest >= r.start) {
        ASSERT_EQ(moved, r.start) << "round " << round << " step " << step;
      } else {
        ASSERT_LE(lowest, moved) << "round " << round << " step " << step;
        ASSERT_EQ(profile.earliest_move(lowest, r.start, r.duration, r.nodes), moved);
      }
      of_job.check_invariants();
      // The runs with fewer nodes free hold those with the job's nodes free: they bound its
      // search too (compression reads one set of runs per power of two of nodes).
      FreeRuns& fewer = runs[static_cast<std::size_t>(uniform(1, r.nodes) - 1)];
      const Time lower = fewer.earliest_start(r.duration, r.start, profile);
      if (lower >= r.start) {
        ASSERT_EQ(moved, r.start) << "round " << round << " step " << step;
      } else {
        ASSERT_LE(lower, moved) << "round " << round << " step " << step;
        ASSERT_EQ(profile.earliest_move(lower, r.start, r.duration, r.nodes), moved);
      }
      fewer.check_invariants();
      // Then the plan changes: the rectangle moves to its earliest slot (its old place given
      // back), or goes, or another one comes.
      const int change = uniform(0, 2);
      if (change == 2) {
        const Rectangle added{0, uniform(1, 80), uniform(1, 16)};
        const Time start = profile.earliest_fit(uniform(0, 50), added.duration, added.nodes);
        profile.reserve(start, start + added.duration, added.nodes);
        placed.push_back({start, added.duration, added.nodes});
        continue;
      }
      profile.release(r.start, r.start + r.duration, r.nodes);
      Time given_from = r.start;  // what comes back: the old slot, but for what the new overlaps
      if (change == 0) {
        placed[pick].start = moved;
        profile.reserve(moved, moved + r.duration, r.nodes);
        given_from = std::max(r.start, moved + r.duration);
      } else {
        placed.erase(placed.begin() + static_cast<std::ptrdiff_t>(pick));
      }
      if (given_from < r.start + r.duration) {
        for (FreeRuns& each : runs) each.give_back(given_from, r.start + r.duration);
      }
    }
  }
}

}  // namespace
}  // namespace batfill
