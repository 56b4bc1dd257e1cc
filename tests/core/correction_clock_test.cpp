// The correction clock alone (docs/semantics.md#predictions-correctors-and-backfill-order), with a
// corrector of the test's own that adds a step (10 s unless said) to the prediction: which jobs it
// tracks, when it wakes, and what a correction gives. Every expected time is start + prediction,
// worked out in the comments.

#include <gtest/gtest.h>

#include <memory>

#include "batfill/core/correction_clock.hpp"

namespace batfill {
namespace {

class AddStep : public Corrector {
 public:
  explicit AddStep(Time step = from_seconds(10)) : step_(step) {}
  Time correct(const Job&, Time, Time prediction, int) const override { return prediction + step_; }

 private:
  Time step_;
};

Time s(long seconds) { return from_seconds(seconds); }

// A job started at `start` with a 100 s walltime, predicted to run `prediction`.
RunningJob running(long start, long prediction, std::uint64_t sequence = 0) {
  RunningJob job;
  job.job.id = "j" + std::to_string(sequence);
  job.job.time_limit = s(100);
  job.job.prediction = s(prediction);
  job.start = s(start);
  job.initial_prediction = job.job.prediction;
  job.start_sequence = sequence;
  return job;
}

TEST(CorrectionClock, WithoutCorrectorTracksNothing) {
  CorrectionClock clock(nullptr);
  RunningJob job = running(5, 10);
  clock.track(job);
  EXPECT_EQ(clock.next(), kNever);
  EXPECT_FALSE(clock.due(job, s(50)));
  EXPECT_EQ(clock.take_expired(s(50)), nullptr);
}

TEST(CorrectionClock, WakesWhenThePredictionExpiresAndCorrectsUntilItLiesAhead) {
  CorrectionClock clock(std::make_unique<AddStep>());
  RunningJob job = running(5, 10);
  clock.track(job);
  EXPECT_EQ(clock.next(), s(15));  // 5 + 10
  EXPECT_EQ(clock.take_expired(s(14)), nullptr);
  ASSERT_EQ(clock.take_expired(s(15)), &job);
  EXPECT_EQ(clock.next(), kNever);  // taken: no longer tracked
  // At 36 s: 10 -> 20 (ends 25 <= 36) -> 30 (ends 35 <= 36) -> 40 (ends 45).
  EXPECT_EQ(clock.correct(job, s(36)), 3);
  EXPECT_EQ(job.job.prediction, s(40));
  EXPECT_EQ(job.corrections, 3);
  clock.track(job);
  EXPECT_EQ(clock.next(), s(45));
  clock.untrack(job);
  EXPECT_EQ(clock.next(), kNever);
}

TEST(CorrectionClock, AJobAtItsWalltimeOrRuntimeIsNotTracked) {
  CorrectionClock clock(std::make_unique<AddStep>());
  RunningJob at_walltime = running(0, 100);
  RunningJob known_end = running(0, 10, 1);
  known_end.job.runtime = s(10);  // it ends when its prediction expires: its completion is due
  clock.track(at_walltime);
  clock.track(known_end);
  EXPECT_EQ(clock.next(), kNever);
  EXPECT_FALSE(clock.due(known_end, s(20)));
}

TEST(CorrectionClock, ACorrectionThatWouldNotExtendPlansUntilTheWalltime) {
  CorrectionClock clock(std::make_unique<AddStep>(0));
  RunningJob job = running(0, 0);
  EXPECT_EQ(clock.correct(job, s(1)), 1);
  EXPECT_EQ(job.job.prediction, s(100));
  EXPECT_FALSE(clock.due(job, s(1000)));  // at its walltime: nothing left to correct
}

TEST(CorrectionClock, SameExpiryComesOutInStartOrder) {
  CorrectionClock clock(std::make_unique<AddStep>());
  RunningJob first_started = running(0, 20, 3);
  RunningJob second_started = running(10, 10, 7);  // both expire at 20 s
  clock.track(second_started);
  clock.track(first_started);
  EXPECT_EQ(clock.take_expired(s(20)), &first_started);
  EXPECT_EQ(clock.take_expired(s(20)), &second_started);
  EXPECT_EQ(clock.take_expired(s(20)), nullptr);
}

}  // namespace
}  // namespace batfill
