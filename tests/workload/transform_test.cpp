// Load scaling and input shaking (docs/semantics.md §5.8) on small hand-built workloads.

#include "batfill/workload/transform.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace batfill::workload {
namespace {

Workload with_submits(const std::vector<Time>& submits) {
  Workload workload;
  for (std::size_t i = 0; i < submits.size(); ++i) {
    WorkloadJob job;
    job.job.id = std::to_string(i + 1);
    job.job.submit_time = submits[i];
    job.job.nodes = 1;
    job.job.time_limit = from_seconds(100);
    workload.jobs.push_back(job);
  }
  return workload;
}

std::vector<Time> submits(const Workload& workload) {
  std::vector<Time> times;
  for (const WorkloadJob& job : workload.jobs) times.push_back(job.job.submit_time);
  return times;
}

// Offsets from the first submission (at 7 s) are divided by the factor: 10 s, 20 s, 40 s
// become 5 s, 10 s, 20 s at load 2 and 20 s, 40 s, 80 s at load 0.5.
TEST(ScaleLoad, DividesInterArrivalTimesByTheFactor) {
  Workload doubled =
      with_submits({from_seconds(7), from_seconds(17), from_seconds(27), from_seconds(47)});
  scale_load(doubled, 2);
  EXPECT_EQ(submits(doubled), (std::vector<Time>{from_seconds(7), from_seconds(12),
                                                 from_seconds(17), from_seconds(27)}));
  Workload halved =
      with_submits({from_seconds(7), from_seconds(17), from_seconds(27), from_seconds(47)});
  scale_load(halved, 0.5);
  EXPECT_EQ(submits(halved), (std::vector<Time>{from_seconds(7), from_seconds(27), from_seconds(47),
                                                from_seconds(87)}));
}

// 10 s / 3 = 3.3333333 s: rounded to the nearest microsecond, 3,333,333 µs; 20 s / 3 rounds up
// to 6,666,667 µs.
TEST(ScaleLoad, RoundsToTheMicrosecond) {
  Workload workload = with_submits({0, from_seconds(10), from_seconds(20)});
  scale_load(workload, 3);
  EXPECT_EQ(submits(workload), (std::vector<Time>{0, 3'333'333, 6'666'667}));
}

// Offsets past 64 bits of microseconds: 10^17 s at load 2 is 5e16 s, and at load 0.5, 2e17 s.
// The factor 1e-15 would put the second job at 10^32 s, beyond kMaxTime (4.25e31 s).
TEST(ScaleLoad, ScalesTimesBeyond64BitsAndStopsAtTheRange) {
  const Time far = from_seconds(100'000'000'000'000'000);
  Workload doubled = with_submits({0, far});
  scale_load(doubled, 2);
  EXPECT_EQ(submits(doubled), (std::vector<Time>{0, from_seconds(50'000'000'000'000'000)}));
  Workload halved = with_submits({0, far});
  scale_load(halved, 0.5);
  EXPECT_EQ(submits(halved), (std::vector<Time>{0, from_seconds(200'000'000'000'000'000)}));
  Workload beyond = with_submits({0, far});
  try {
    scale_load(beyond, 1e-15);
    ADD_FAILURE() << "a submission beyond the range was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("submits job '2' beyond batfill's time range"),
              std::string::npos)
        << error.what();
  }
}

TEST(ScaleLoad, FactorOneChangesNothing) {
  Workload workload = with_submits({5, 1'000'003, 2'000'011});
  scale_load(workload, 1);
  EXPECT_EQ(submits(workload), (std::vector<Time>{5, 1'000'003, 2'000'011}));
}

TEST(ScaleLoad, RejectsFactorsThatAreNotPositiveAndFinite) {
  Workload workload = with_submits({0, 10});
  for (double factor : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    EXPECT_THROW(scale_load(workload, factor), std::invalid_argument) << factor;
  }
}

TEST(ParseShake, ReadsSeedAndPercent) {
  EXPECT_EQ(parse_shake("42").seed, 42u);
  EXPECT_DOUBLE_EQ(parse_shake("42").fraction, 0.05);
  EXPECT_DOUBLE_EQ(parse_shake("7:12.5").fraction, 0.125);
  for (const char* bad : {"", "x", "-3", "4:", "4:101", "4:-1", "4:abc", "1.5"}) {
    EXPECT_THROW(parse_shake(bad), std::invalid_argument) << bad;
  }
}

// Every job moves by at most 5 % of its gap to the previous submission (first job: gap 0, so
// it stays), the same seed gives the same times, another seed other times.
TEST(ShakeSubmissions, StaysWithinTheGapAndIsReproducible) {
  std::vector<Time> original;
  for (int i = 0; i < 200; ++i) original.push_back(from_seconds(100 * i + (i % 7) * 13));
  Workload first = with_submits(original);
  shake_submissions(first, {42, 0.05});
  Workload again = with_submits(original);
  shake_submissions(again, {42, 0.05});
  Workload other = with_submits(original);
  shake_submissions(other, {43, 0.05});
  EXPECT_EQ(submits(first), submits(again));
  EXPECT_NE(submits(first), submits(other));

  std::size_t moved = 0;
  for (const WorkloadJob& job : first.jobs) {
    const std::size_t i = std::stoul(job.job.id) - 1;
    const Time gap = i == 0 ? 0 : original[i] - original[i - 1];
    const Time shift = job.job.submit_time - original[i];
    EXPECT_LE(std::llabs(shift), gap / 20 + 1) << "job " << job.job.id;
    moved += shift != 0;
  }
  EXPECT_GT(moved, 150u);
  EXPECT_EQ(first.jobs.front().job.submit_time, original.front());
}

// Jobs 1 s apart behind a 100 s gap: shaking by 50 % may swap them; the workload stays in
// submission order (same instant: by id) and no time goes below 0.
TEST(ShakeSubmissions, KeepsSubmissionOrderAndNonNegativeTimes) {
  Workload workload = with_submits({0, from_seconds(100), from_seconds(101), from_seconds(102)});
  shake_submissions(workload, {9, 0.5});
  for (std::size_t i = 1; i < workload.jobs.size(); ++i) {
    EXPECT_LE(workload.jobs[i - 1].job.submit_time, workload.jobs[i].job.submit_time);
  }
  for (const WorkloadJob& job : workload.jobs) EXPECT_GE(job.job.submit_time, 0);
}

TEST(ShakeSubmissions, ZeroPercentChangesNothing) {
  Workload workload = with_submits({0, from_seconds(10), from_seconds(30)});
  shake_submissions(workload, {1, 0});
  EXPECT_EQ(submits(workload), (std::vector<Time>{0, from_seconds(10), from_seconds(30)}));
}

}  // namespace
}  // namespace batfill::workload
