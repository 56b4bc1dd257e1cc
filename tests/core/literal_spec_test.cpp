// Independent checks. Of the spec policies: a literal, quadratic transcription of the spec's
// pseudo-code ("Step 1/2/3" of EASY and CONSERVATIVE, docs/semantics.md §2.2–§2.3, with the reading
// that a job fitting in the free nodes now has shadow = now) against batfill's near-linear
// policies, on hundreds of random workloads. Same start times for every job, or the fast path is
// wrong.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <utility>

#include "batfill/core/availability_profile.hpp"

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

struct RunningEnd {
  Time end;
  int nodes;
};

// "Calculate Reservation": the first planned end at which free + freed-so-far reaches `needed`.
Time literal_reservation(Time now, int free_nodes, std::vector<RunningEnd> running, int needed) {
  if (free_nodes >= needed) return now;
  std::sort(running.begin(), running.end(),
            [](const RunningEnd& a, const RunningEnd& b) { return a.end < b.end; });
  int freed = 0;
  for (const RunningEnd& r : running) {
    freed += r.nodes;
    if (free_nodes + freed >= needed) return r.end;
  }
  return kNever;
}

class LiteralSpecPolicy : public Policy {
 public:
  explicit LiteralSpecPolicy(bool conservative) : conservative_(conservative) {}

  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    int free_nodes = view.free_nodes;
    std::vector<RunningEnd> running;
    for (const auto& [end, nodes] : *view.releases) running.push_back({end, nodes});
    std::vector<const Job*> queue(view.queue.begin(), view.queue.end());
    std::vector<const Job*> started;
    auto start = [&](std::size_t index) {
      const Job* job = queue[index];
      free_nodes -= job->nodes;
      running.push_back({view.now + job->time_limit, job->nodes});
      started.push_back(job);
      queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(index));
    };
    for (;;) {
      while (!queue.empty() && free_nodes >= queue.front()->nodes) start(0);  // Step 1
      if (queue.empty()) break;
      bool backfilled = false;
      const Time reservation =
          literal_reservation(view.now, free_nodes, running, queue.front()->nodes);  // Step 2
      std::size_t i = 1;
      while (i < queue.size()) {  // Step 3
        const Job* job = queue[i];
        Time window = reservation;
        if (conservative_) {
          // Every shadow ahead, recomputed from the effectively running jobs.
          window = kNever;
          for (std::size_t ahead = 0; ahead < i; ++ahead) {
            window = std::min(
                window, literal_reservation(view.now, free_nodes, running, queue[ahead]->nodes));
          }
        }
        if (job->nodes <= free_nodes && view.now + job->time_limit < window) {
          start(i);
          backfilled = true;
        } else {
          ++i;
        }
      }
      if (!backfilled) break;
    }
    return started;
  }

 private:
  bool conservative_;
};

std::vector<testing::TraceJob> random_trace(unsigned seed, int machine) {
  std::mt19937 random(seed);
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  std::vector<testing::TraceJob> trace;
  const int jobs = uniform(10, 60);
  int submit = 0;
  for (int i = 0; i < jobs; ++i) {
    submit += uniform(0, 3) == 0 ? 0 : uniform(0, 40);  // many ties at one instant
    testing::TraceJob t;
    t.job.id = std::to_string(i);
    t.job.submit_time = from_seconds(submit);
    t.job.nodes = uniform(1, machine);
    t.job.time_limit = from_seconds(uniform(1, 20) * 10);  // coarse limits: equal ends are common
    t.runtime = uniform(0, 2) == 0 ? from_seconds(uniform(0, 200)) : t.job.time_limit;
    trace.push_back(t);
  }
  return trace;
}

TEST(LiteralSpec, FastPoliciesMatchTheLiteralPseudoCode) {
  constexpr int kMachine = 16;
  int differing = 0;
  for (unsigned seed = 1; seed <= 400; ++seed) {
    const std::vector<testing::TraceJob> trace = random_trace(seed, kMachine);
    for (const bool conservative : {false, true}) {
      const testing::ReplayResult literal =
          testing::replay(trace, kMachine, std::make_unique<LiteralSpecPolicy>(conservative));
      const testing::ReplayResult fast =
          testing::replay(trace, kMachine, conservative ? "conservative" : "easy");
      EXPECT_EQ(fast.start, literal.start)
          << (conservative ? "conservative" : "easy") << " seed " << seed;
      differing += fast.start != literal.start;
    }
  }
  EXPECT_EQ(differing, 0);
}

// The same under queue orders that insert new jobs before waiting ones or sort the queue again
// at every pass: the conservative policy's copy of the queue, kept between passes, must follow.
TEST(LiteralSpec, FastConservativeMatchesTheLiteralPseudoCodeUnderReorderingQueues) {
  constexpr int kMachine = 16;
  for (const QueueOrder order :
       {QueueOrder::kLcfs, QueueOrder::kAscSize, QueueOrder::kDescSlowdown}) {
    SchedulerOptions options;
    options.order = order;
    for (unsigned seed = 1; seed <= 100; ++seed) {
      const std::vector<testing::TraceJob> trace = random_trace(seed, kMachine);
      const testing::ReplayResult literal =
          testing::replay(trace, kMachine, std::make_unique<LiteralSpecPolicy>(true), options);
      const testing::ReplayResult fast = testing::replay(trace, kMachine, "conservative", options);
      ASSERT_EQ(fast.start, literal.start) << to_string(order) << " seed " << seed;
    }
  }
}

// Classic conservative backfilling as docs/semantics.md §2.5 states it, without the policy's
// shortcuts (skipped reservations, bounded searches, indexed walks): at a pass after
// completions every reservation is taken out and put back at its earliest slot, in queue order;
// then new jobs are placed and due jobs start. For jobs that all have a run limit, one implicit
// queue and no late reports.
class LiteralConservativeClassic final : public Policy {
 public:
  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    if (!profile_) profile_.emplace(view.machine_count, view.now);
    profile_->advance_to(view.now);
    if (std::exchange(completed_, false)) {
      for (const Job* job : view.queue) {
        const auto it = slots_.find(job);
        if (it == slots_.end() || it->second.first <= view.now) continue;
        profile_->release(it->second.first, it->second.second, job->nodes);
        const Time start = std::min(it->second.first,
                                    profile_->earliest_fit(view.now, occupancy(*job), job->nodes));
        it->second = {start, start + occupancy(*job)};
        profile_->reserve(start, it->second.second, job->nodes);
      }
    }
    std::vector<const Job*> started;
    int free_nodes = view.free_nodes;
    for (const Job* job : view.queue) {
      auto it = slots_.find(job);
      if (it == slots_.end()) {
        const Time start = profile_->earliest_fit(view.now, occupancy(*job), job->nodes);
        it = slots_.emplace(job, std::make_pair(start, start + occupancy(*job))).first;
        profile_->reserve(start, it->second.second, job->nodes);
      }
      if (it->second.first > view.now || job->nodes > free_nodes) continue;
      free_nodes -= job->nodes;
      running_.emplace(job->id, it->second);
      slots_.erase(it);
      started.push_back(job);
    }
    return started;
  }

  void on_job_finished(const Job& job) override {
    const auto it = running_.find(job.id);
    profile_->release(it->second.first, it->second.second, job.nodes);
    running_.erase(it);
    completed_ = true;
  }

 private:
  std::optional<AvailabilityProfile> profile_;
  std::map<const Job*, std::pair<Time, Time>> slots_;  // of the waiting jobs
  std::map<JobId, std::pair<Time, Time>> running_;
  bool completed_ = false;
};

TEST(LiteralConservativeClassic, PolicyMatchesTheLiteralRulesUnderEveryQueueOrder) {
  constexpr int kMachine = 16;
  for (const QueueOrder order :
       {QueueOrder::kFcfs, QueueOrder::kLcfs, QueueOrder::kAscSize, QueueOrder::kDescSlowdown}) {
    SchedulerOptions options;
    options.order = order;
    for (unsigned seed = 1; seed <= 200; ++seed) {
      const std::vector<testing::TraceJob> trace = random_trace(seed, kMachine);
      const testing::ReplayResult literal =
          testing::replay(trace, kMachine, std::make_unique<LiteralConservativeClassic>(), options);
      const testing::ReplayResult policy =
          testing::replay(trace, kMachine, "conservative-classic", options);
      ASSERT_EQ(policy.start, literal.start) << to_string(order) << " seed " << seed;
    }
  }
}

// The check above must be able to fail: the literal EASY and CONSERVATIVE differ on some of
// these workloads (so the comparison distinguishes the two policies).
TEST(LiteralSpec, TheTwoLiteralPoliciesDifferOnSomeWorkloads) {
  int differ = 0;
  for (unsigned seed = 1; seed <= 400; ++seed) {
    const std::vector<testing::TraceJob> trace = random_trace(seed, 16);
    differ += testing::replay(trace, 16, std::make_unique<LiteralSpecPolicy>(false)).start !=
              testing::replay(trace, 16, std::make_unique<LiteralSpecPolicy>(true)).start;
  }
  EXPECT_GT(differ, 10);
}

}  // namespace
}  // namespace batfill
