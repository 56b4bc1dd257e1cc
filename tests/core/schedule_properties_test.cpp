// Randomized property tests: hundreds of small random workloads (fixed seeds), runtimes at or
// below the limits, replayed through every registered policy. The checks are independent of
// the policies' code: machines are tracked here from the decisions, and the EASY reservation
// is recomputed here from the running jobs' planned ends.

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

using testing::TraceJob;

struct Workload {
  int machine_count = 0;
  std::vector<TraceJob> trace;
};

// A few rejected jobs (0 nodes, too many nodes) and zero limits and runtimes on purpose.
Workload random_workload(unsigned seed, bool runtime_is_limit) {
  std::mt19937 random(seed);
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  Workload w;
  w.machine_count = uniform(4, 24);
  const int jobs = uniform(5, 30);
  for (int i = 0; i < jobs; ++i) {
    TraceJob t;
    t.job.id = std::to_string(i);
    t.job.submit_time = from_seconds(uniform(0, 150));
    t.job.nodes =
        uniform(0, 40) == 0 ? uniform(0, 1) * (w.machine_count + 1) : uniform(1, w.machine_count);
    t.job.time_limit = from_seconds(runtime_is_limit ? uniform(1, 80) : uniform(0, 80));
    t.runtime = runtime_is_limit     ? t.job.time_limit
                : uniform(0, 3) == 0 ? t.job.time_limit
                                     : from_seconds(uniform(0, 80));
    w.trace.push_back(t);
  }
  return w;
}

class Checker : public testing::ReplayObserver {
 public:
  Checker(const Workload& w, std::string policy)
      : machine_count_(w.machine_count), policy_(std::move(policy)) {
    for (const TraceJob& t : w.trace) jobs_[t.job.id] = t.job;
  }

  void before_submit(const Scheduler& scheduler, const Job& job, Time now) override {
    waiting_.insert(job.id);
    first_estimate_[job.id] = scheduler.estimate_start(job, now);
  }

  void after_pass(const Scheduler& /*scheduler*/, Time now, const std::vector<JobId>& completed,
                  const std::vector<Decision>& decisions) override {
    for (const JobId& id : completed) {
      busy_ -= running_.at(id).machines;
      running_.erase(id);
    }
    for (const Decision& d : decisions) {
      const Job& job = jobs_.at(d.job_id);
      ASSERT_EQ(waiting_.erase(d.job_id), 1u) << "decision for a job not waiting: " << d.job_id;
      if (d.kind == Decision::Kind::kReject) {
        // Only jobs that can never run, but for the policy that rejects every job.
        EXPECT_TRUE(job.nodes <= 0 || job.nodes > machine_count_ || policy_ == "rejecter")
            << d.reason.text();
        continue;
      }
      EXPECT_EQ(machine_count(d.machines), job.nodes) << d.job_id;
      EXPECT_TRUE(boost::icl::within(d.machines, machine_range(0, machine_count_ - 1)));
      EXPECT_FALSE(boost::icl::intersects(busy_, d.machines))
          << "machines used twice at " << format_seconds(now) << ": " << to_string(d.machines);
      busy_ += d.machines;
      running_[d.job_id] = {now, job, d.machines};
    }
    EXPECT_LE(machine_count(busy_), machine_count_);
    record_head_reservation(now);
  }

  // The reservation of the FCFS head when it first became head after a pass: the earliest
  // planned end at which the free nodes plus those released so far reach its need.
  void record_head_reservation(Time now) {
    const JobId* head = nullptr;
    for (const JobId& id : waiting_) {
      const Job& job = jobs_.at(id);
      if (job.nodes <= 0 || job.nodes > machine_count_) continue;  // rejected at submission
      if (head == nullptr || job.submit_time < jobs_.at(*head).submit_time ||
          (job.submit_time == jobs_.at(*head).submit_time && job_id_less(id, *head))) {
        head = &id;
      }
    }
    if (head == nullptr || head_reservation_.count(*head) != 0) return;
    std::multimap<Time, int> releases;
    for (const auto& [id, r] : running_) releases.emplace(planned_end(r.job, r.start), r.job.nodes);
    int free = machine_count_ - machine_count(busy_);
    Time reservation = now;
    for (auto it = releases.begin(); free < jobs_.at(*head).nodes; ++it) {
      free += it->second;
      reservation = std::max(now, it->first);
    }
    head_reservation_[*head] = reservation;
  }

  const std::map<JobId, Time>& first_estimate() const { return first_estimate_; }
  const std::map<JobId, Time>& head_reservation() const { return head_reservation_; }

 private:
  struct Running {
    Time start;
    Job job;
    MachineSet machines;
  };
  int machine_count_;
  std::string policy_;
  std::map<JobId, Job> jobs_;
  std::set<JobId> waiting_;
  std::map<JobId, Running> running_;
  MachineSet busy_;
  std::map<JobId, Time> first_estimate_;
  std::map<JobId, Time> head_reservation_;
};

constexpr unsigned kWorkloads = 300;

Time jobs_submit(const Workload& w, const JobId& id) {
  for (const TraceJob& t : w.trace) {
    if (t.job.id == id) return t.job.submit_time;
  }
  throw std::logic_error("no job " + id);
}

TEST(ScheduleProperties, EveryPolicyKeepsMachinesExclusiveAndFinishesEveryJob) {
  for (const PolicyInfo& policy : registered_policies()) {
    for (unsigned seed = 1; seed <= kWorkloads; ++seed) {
      const Workload w = random_workload(seed, false);
      Checker checker(w, policy.name);
      const testing::ReplayResult result =
          testing::replay(w.trace, w.machine_count, policy.name, {}, &checker);
      ASSERT_FALSE(::testing::Test::HasFailure()) << policy.name << " seed " << seed;
      for (const TraceJob& t : w.trace) {
        EXPECT_EQ(result.start.count(t.job.id) + result.rejected.count(t.job.id), 1u)
            << policy.name << " seed " << seed << " job " << t.job.id;
        if (result.start.count(t.job.id)) EXPECT_GE(result.start.at(t.job.id), t.job.submit_time);
      }
    }
  }
}

// EASY's promise (spec and classic): the queue head never starts later than the reservation it
// got when it became head. Spec EASY may move it earlier after early completions, never later.
TEST(ScheduleProperties, EasyHeadNeverStartsAfterItsFirstReservation) {
  for (const char* policy : {"easy", "easy-classic"}) {
    std::size_t heads = 0;
    for (unsigned seed = 1; seed <= kWorkloads; ++seed) {
      const Workload w = random_workload(seed, false);
      Checker checker(w, policy);
      const testing::ReplayResult result =
          testing::replay(w.trace, w.machine_count, policy, {}, &checker);
      for (const auto& [id, reservation] : checker.head_reservation()) {
        ++heads;
        EXPECT_LE(result.start.at(id), reservation) << policy << " seed " << seed << " job " << id;
      }
    }
    EXPECT_GT(heads, 1000u) << policy;  // most workloads do block a head
  }
}

// With clairvoyant predictions (docs/semantics.md#predictions-correctors-and-backfill-order) EASY
// plans with the actual runtimes, so the head's reservation recomputed here from the actual ends is
// a promise kept.
TEST(ScheduleProperties, ClairvoyantEasyHeadNeverStartsAfterItsReservationFromActualRuntimes) {
  SchedulerOptions options;
  options.predictor = "clairvoyant";
  for (const char* policy : {"easy", "easy-classic"}) {
    std::size_t heads = 0;
    for (unsigned seed = 1; seed <= kWorkloads; ++seed) {
      Workload w = random_workload(seed, false);
      for (TraceJob& t : w.trace) {
        t.job.runtime = std::min(t.runtime, t.job.time_limit);
        t.job.prediction = t.job.runtime;  // the checker's planned ends: the actual ones
      }
      Checker checker(w, policy);
      const testing::ReplayResult result =
          testing::replay(w.trace, w.machine_count, policy, options, &checker);
      for (const auto& [id, reservation] : checker.head_reservation()) {
        ++heads;
        EXPECT_LE(result.start.at(id), reservation) << policy << " seed " << seed << " job " << id;
      }
    }
    EXPECT_GT(heads, 1000u) << policy;
  }
}

// Conservative backfilling's promise: no job starts later than the slot it got at submission
// (compression only moves reservations earlier). The estimate before submission is that slot.
TEST(ScheduleProperties, ConservativeClassicNeverStartsAfterItsFirstReservation) {
  for (unsigned seed = 1; seed <= kWorkloads; ++seed) {
    const Workload w = random_workload(seed, false);
    Checker checker(w, "conservative-classic");
    const testing::ReplayResult result =
        testing::replay(w.trace, w.machine_count, "conservative-classic", {}, &checker);
    for (const auto& [id, start] : result.start) {
      EXPECT_LE(start, checker.first_estimate().at(id)) << "seed " << seed << " job " << id;
    }
  }
}

// When every job runs its whole limit nothing is ever freed early, so no reservation can move
// and each job starts exactly at the estimate it was given before its submission.
TEST(ScheduleProperties, ConservativeClassicEstimateIsExactWithoutEarlyCompletions) {
  std::size_t waited = 0;
  for (unsigned seed = 1; seed <= kWorkloads; ++seed) {
    const Workload w = random_workload(seed, true);
    Checker checker(w, "conservative-classic");
    const testing::ReplayResult result =
        testing::replay(w.trace, w.machine_count, "conservative-classic", {}, &checker);
    for (const auto& [id, start] : result.start) {
      EXPECT_EQ(start, checker.first_estimate().at(id)) << "seed " << seed << " job " << id;
      waited += start > jobs_submit(w, id) ? 1 : 0;
    }
  }
  EXPECT_GT(waited, 100u);  // the workloads do make jobs wait
}

}  // namespace
}  // namespace batfill
