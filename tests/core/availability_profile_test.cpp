// The profile's step function and searches on hand-built rectangles (10 nodes).

#include "batfill/core/availability_profile.hpp"

#include <gtest/gtest.h>

#include <random>

#include "conservative/freed_capacity_log.hpp"

namespace batfill {
namespace {

TEST(AvailabilityProfile, ReserveAndReleaseAreExactInverses) {
  AvailabilityProfile profile(10, 0);
  profile.reserve(10, 20, 4);
  profile.reserve(15, 30, 3);
  EXPECT_EQ(profile.free_at(9), 10);
  EXPECT_EQ(profile.free_at(10), 6);
  EXPECT_EQ(profile.free_at(15), 3);
  EXPECT_EQ(profile.free_at(20), 7);  // the first rectangle ends at 20, exclusive
  EXPECT_EQ(profile.free_at(30), 10);
  profile.release(10, 20, 4);
  profile.release(15, 30, 3);
  EXPECT_EQ(profile.steps().size(), 1u);  // merged back into one step
}

TEST(AvailabilityProfile, EarliestFitFillsHolesAndMayEndWhereAnotherBegins) {
  AvailabilityProfile profile(10, 0);
  profile.reserve(0, 100, 6);                       // 4 free in [0,100)
  profile.reserve(100, 200, 10);                    // none in [100,200)
  EXPECT_EQ(profile.earliest_fit(0, 100, 4), 0);    // ends exactly at 100
  EXPECT_EQ(profile.earliest_fit(0, 101, 4), 200);  // one microsecond too long
  EXPECT_EQ(profile.earliest_fit(0, 10, 5), 200);
  EXPECT_EQ(profile.earliest_fit(250, 10, 10), 250);
  EXPECT_EQ(profile.earliest_fit(0, kNever, 10), 200);  // a job without end
  EXPECT_EQ(profile.earliest_fit(0, 1, 11), kNever);
}

TEST(AvailabilityProfile, FitsChecksEveryStepOfTheWindow) {
  AvailabilityProfile profile(10, 0);
  profile.reserve(0, 100, 6);            // 4 free in [0,100)
  profile.reserve(100, 200, 10);         // none in [100,200)
  EXPECT_TRUE(profile.fits(0, 100, 4));  // ends exactly where the full step begins
  EXPECT_FALSE(profile.fits(0, 101, 4));
  EXPECT_FALSE(profile.fits(0, 10, 5));
  EXPECT_TRUE(profile.fits(200, kNever, 10));  // for ever
  EXPECT_FALSE(profile.fits(50, kNever, 1));
}

TEST(AvailabilityProfile, EarliestMoveIgnoresTheRectangleItself) {
  AvailabilityProfile profile(10, 0);
  profile.reserve(0, 50, 10);
  profile.reserve(60, 100, 6);  // the rectangle to move: 6 nodes planned at [60,100)
  profile.reserve(100, 120, 4);
  // From 50 the machine has 10 nodes free once the rectangle is out: it can start at 50.
  EXPECT_EQ(profile.earliest_move(0, 60, 40, 6), 50);
  // Nothing moved: the profile is as before.
  EXPECT_EQ(profile.free_at(55), 10);
  EXPECT_EQ(profile.free_at(60), 4);
  // Never later than where it is: a 9-node rectangle at [120,160) cannot go anywhere earlier.
  profile.reserve(120, 160, 9);
  EXPECT_EQ(profile.earliest_move(0, 120, 40, 9), 120);
}

// Merging equal neighbours may drop a rectangle's own boundary; the move search must still see
// the rectangle exactly. The 8-node rectangle to move is [40,70); an 8-node neighbour [10,40)
// makes one step [10,70) with 2 free. Correct: [10,40) has only 2 free, so no start before 40
// fits. Counting the whole merged step as the rectangle's own would find room at 0.
TEST(AvailabilityProfile, EarliestMoveAfterItsBoundaryWasMerged) {
  AvailabilityProfile profile(10, 0);
  profile.reserve(10, 40, 8);
  profile.reserve(40, 70, 8);
  ASSERT_EQ(profile.steps().size(), 3u);  // [0,10) 10, [10,70) 2, [70,..) 10
  EXPECT_EQ(profile.earliest_move(0, 40, 30, 8), 40);
  EXPECT_EQ(profile.steps().size(), 3u);  // the search is read-only
}

// The read-only move search against its definition (take the rectangle out, search from the
// origin, put it back) on random profiles, over-committed ones included (steps below zero).
TEST(AvailabilityProfile, EarliestMoveEqualsTakeOutAndSearchOnRandomProfiles) {
  std::mt19937 random(7);
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  for (int round = 0; round < 2000; ++round) {
    AvailabilityProfile profile(10, 0);
    const int rectangles = uniform(0, 12);
    for (int i = 0; i < rectangles; ++i) {
      const Time start = uniform(0, 100);
      profile.reserve(start, start + uniform(1, 60), uniform(1, round % 3 == 0 ? 10 : 6));
    }
    const Time start = uniform(0, 120);
    const Time duration = uniform(1, 60);
    const int nodes = uniform(1, 10);
    profile.reserve(start, start + duration, nodes);
    const auto before = profile.steps();
    const Time from = uniform(0, static_cast<int>(start));
    const Time moved = profile.earliest_move(from, start, duration, nodes);
    // A bound on the starts tried finds the same start below it, and none at or after it.
    const Time bound = uniform(0, 130);
    ASSERT_EQ(profile.earliest_move(from, start, duration, nodes, bound),
              moved < bound ? moved : start)
        << "round " << round;
    EXPECT_EQ(profile.steps(), before);
    profile.release(start, start + duration, nodes);
    const Time expected = std::min(start, profile.earliest_fit(from, duration, nodes));
    ASSERT_EQ(moved, expected) << "round " << round;
  }
}

// The same on plans built as conservative backfilling builds them: rectangles placed at their
// earliest fit (so most start right after a step lacking their nodes, the case the search cuts
// short), then some taken out again as early completions and moves do.
TEST(AvailabilityProfile, EarliestMoveEqualsTakeOutAndSearchOnPlannedProfiles) {
  std::mt19937 random(11);
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  struct Rectangle {
    Time start, duration;
    int nodes;
  };
  for (int round = 0; round < 1000; ++round) {
    AvailabilityProfile profile(16, 0);
    std::vector<Rectangle> placed;
    const int rectangles = uniform(1, 20);
    for (int i = 0; i < rectangles; ++i) {
      const Rectangle r{0, uniform(1, 80), uniform(1, 16)};
      const Time start = profile.earliest_fit(uniform(0, 50), r.duration, r.nodes);
      profile.reserve(start, start + r.duration, r.nodes);
      placed.push_back({start, r.duration, r.nodes});
    }
    for (int i = 0; i < 3 && placed.size() > 1; ++i) {
      const std::size_t gone =
          static_cast<std::size_t>(uniform(0, static_cast<int>(placed.size()) - 1));
      profile.release(placed[gone].start, placed[gone].start + placed[gone].duration,
                      placed[gone].nodes);
      placed.erase(placed.begin() + static_cast<std::ptrdiff_t>(gone));
    }
    for (const Rectangle& r : placed) {
      const Time from = uniform(0, static_cast<int>(r.start));
      const Time moved = profile.earliest_move(from, r.start, r.duration, r.nodes);
      profile.release(r.start, r.start + r.duration, r.nodes);
      const Time expected = std::min(r.start, profile.earliest_fit(from, r.duration, r.nodes));
      profile.reserve(r.start, r.start + r.duration, r.nodes);
      ASSERT_EQ(moved, expected) << "round " << round;
    }
  }
}

// The profile against free nodes kept instant by instant, over random reserves, releases and
// advances (every step lookup and insert path, the rectangle's end included).
TEST(AvailabilityProfile, MatchesFreeNodesKeptPerInstant) {
  std::mt19937 random(5);
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  constexpr int kHorizon = 200;
  for (int round = 0; round < 300; ++round) {
    AvailabilityProfile profile(12, 0);
    std::vector<int> free(kHorizon + 1, 12);  // free[kHorizon] stands for every later instant
    Time origin = 0;
    for (int change = 0; change < 40; ++change) {
      const Time start = uniform(0, 150);
      const bool for_ever = uniform(0, 9) == 0;
      const Time end = for_ever ? kNever : start + uniform(1, 50);
      const int nodes = uniform(1, 6) * (uniform(0, 2) == 0 ? -1 : 1);
      if (nodes > 0)
        profile.reserve(start, end, nodes);
      else
        profile.release(start, end, -nodes);
      for (Time t = std::max(start, origin); t <= kHorizon && (for_ever || t < end); ++t) {
        if (t < kHorizon || for_ever) free[static_cast<std::size_t>(t)] -= nodes;
      }
      if (uniform(0, 9) == 0) {
        origin = std::min<Time>(origin + uniform(0, 20), 150);
        profile.advance_to(origin);
      }
      for (Time t = origin; t <= kHorizon; t += uniform(1, 7)) {
        ASSERT_EQ(profile.free_at(t), free[static_cast<std::size_t>(t)])
            << "round " << round << " t " << ::testing::PrintToString(t);
      }
      const int want = uniform(1, 12);
      const Time duration = uniform(1, 30);
      Time expected = kNever;
      for (Time c = origin; c + duration <= kHorizon && expected == kNever; ++c) {
        bool fits = true;
        for (Time t = c; t < c + duration && fits; ++t)
          fits = free[static_cast<std::size_t>(t)] >= want;
        if (fits) expected = c;
      }
      const Time found = profile.earliest_fit(origin, duration, want);
      if (expected != kNever)
        ASSERT_EQ(found, expected) << "round " << round;
      else
        ASSERT_TRUE(found == kNever || found + duration > kHorizon) << "round " << round;
    }
  }
}

TEST(AvailabilityProfile, AdvanceForgetsThePast) {
  AvailabilityProfile profile(10, 0);
  profile.reserve(0, 100, 7);
  profile.advance_to(40);
  EXPECT_EQ(profile.origin(), 40);
  EXPECT_EQ(profile.free_at(40), 3);
  EXPECT_EQ(profile.earliest_fit(0, 10, 5), 100);  // never before the origin
  profile.release(0, 100, 7);                      // the part before the origin is history
  EXPECT_EQ(profile.free_at(40), 10);
  EXPECT_EQ(profile.steps().size(), 1u);
}

TEST(AvailabilityProfile, ZeroLimitJobsStillHoldTheirNodesForAnInstant) {
  Job job;
  job.time_limit = 0;
  EXPECT_EQ(occupancy(job), 1);
  job.time_limit = kNoTimeLimit;
  EXPECT_EQ(occupancy(job), kNever);
}

TEST(FreedCapacityLog, AnswersTheEarliestFreedTimeSinceAVersion) {
  FreedCapacityLog log;
  const auto start = log.version();
  EXPECT_EQ(log.earliest_since(start), kNever);
  log.record(50);
  const auto after_50 = log.version();
  log.record(80);
  log.record(30);  // dominates 50 and 80 for every earlier version
  log.record(90);
  EXPECT_EQ(log.earliest_since(start), 30);
  EXPECT_EQ(log.earliest_since(after_50), 30);
  EXPECT_EQ(log.earliest_since(log.version()), kNever);
}

TEST(FreedCapacityLog, ForgettingThePastAnswersNowForIt) {
  FreedCapacityLog log;
  const auto start = log.version();
  log.record(10);
  const auto after_10 = log.version();
  log.record(20);
  const auto after_20 = log.version();
  log.record(60);
  log.forget_before(40);
  EXPECT_EQ(log.earliest_since(start), 40);
  EXPECT_EQ(log.earliest_since(after_10), 40);
  EXPECT_EQ(log.earliest_since(after_20), 60);
  log.forget_before(70);
  EXPECT_EQ(log.earliest_since(after_20), 70);
  EXPECT_EQ(log.earliest_since(log.version()), kNever);
}

}  // namespace
}  // namespace batfill
