// Load scaling and input shaking
// (docs/semantics.md#load-scaling-and-input-shaking---load-factor---shake) on small hand-built
// workloads.

#include "batfill/workload/transform.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "batfill/workload/job_stream.hpp"

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

// ---- Transformed streams (docs/semantics.md#streaming-replay)
// ------------------------------------------

// What a transformed stream hands out: ids, submit times and profiles, in order.
struct Handed {
  std::string id;
  Time submit;
  const Profile* profile;
  bool operator==(const Handed& o) const {
    return id == o.id && submit == o.submit && profile == o.profile;
  }
};

std::vector<Handed> drain(JobStream& jobs) {
  std::vector<Handed> handed;
  while (const WorkloadJob* job = jobs.next()) {
    handed.push_back({job->job.id, job->job.submit_time, jobs.profile_of(*job)});
  }
  return handed;
}

// The stream against the workload read whole, scaled and shaken.
void expect_stream_as_whole(const std::string& path, double factor, std::optional<Shake> shake) {
  Workload whole = read_workload(path);
  scale_load(whole, factor);
  if (shake) shake_submissions(whole, *shake);
  const std::unique_ptr<JobStream> stream = transform_jobs(open_job_stream(path), factor, shake);
  const std::vector<Handed> streamed = drain(*stream);
  ASSERT_EQ(streamed.size(), whole.jobs.size());
  for (std::size_t i = 0; i < streamed.size(); ++i) {
    const WorkloadJob& expected = whole.jobs[i];
    ASSERT_EQ(streamed[i].id, expected.job.id) << i;
    EXPECT_EQ(streamed[i].submit, expected.job.submit_time) << expected.job.id;
    const auto profile = stream->workload().profiles.find(expected.profile);
    EXPECT_EQ(streamed[i].profile,
              profile == stream->workload().profiles.end() ? nullptr : &profile->second)
        << expected.job.id;
  }
}

TEST(TransformJobs, BundledWorkloadsStreamAsTransformedWhole) {
  for (const char* trace : {"lublin_256.swf", "KTH-SP2-1996-2.1-cln.swf.gz",
                            "drevt-huge_2000jobs.csv", "tiny_batsim.json"}) {
    SCOPED_TRACE(trace);
    const std::string path = std::string(BATFILL_SOURCE_DIR "/workloads/") + trace;
    expect_stream_as_whole(path, 1.3, std::nullopt);
    expect_stream_as_whole(path, 0.7, std::nullopt);
    expect_stream_as_whole(path, 1, Shake{42, 0.05});
    expect_stream_as_whole(path, 1.2, Shake{7, 1.0});  // the widest shaking
  }
}

// Shaking at 100 % after a long gap sends a job far past the jobs read after it, and load
// scaling can give jobs of different times one time: the stream orders them as a sort would.
TEST(TransformJobs, LongGapsAndTiesAreOrderedAsTheWholeWorkload) {
  std::string trace = "; MaxProcs: 4\n";
  const auto record = [](int id, long submit) {
    return std::to_string(id) + " " + std::to_string(submit) +
           " -1 5 1 -1 -1 1 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
  };
  int id = 1;
  for (long submit : {0L, 100000L, 100001L, 100002L, 100002L, 100003L, 250000L, 250000L}) {
    trace += record(id++, submit);
  }
  for (long i = 0; i < 200; ++i) trace += record(id++, 250001 + i * (i % 7));
  const std::string path = ::testing::TempDir() + "transform_jobs.swf";
  std::ofstream(path) << trace;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    SCOPED_TRACE(seed);
    expect_stream_as_whole(path, 1, Shake{seed, 1.0});
    expect_stream_as_whole(path, 3e6, Shake{seed, 0.5});  // many jobs at one scaled time
  }
  expect_stream_as_whole(path, 3e6, std::nullopt);
}

TEST(TransformJobs, NothingToDoKeepsTheStream) {
  const std::string path = BATFILL_SOURCE_DIR "/workloads/tiny.swf";
  std::unique_ptr<JobStream> jobs = open_job_stream(path);
  const JobStream* plain = jobs.get();
  EXPECT_EQ(transform_jobs(std::move(jobs), 1, std::nullopt).get(), plain);
  EXPECT_THROW(transform_jobs(open_job_stream(path), 0, std::nullopt), std::invalid_argument);
  EXPECT_THROW(transform_jobs(open_job_stream(path), 1, Shake{1, 1.5}), std::invalid_argument);
}

}  // namespace
}  // namespace batfill::workload
