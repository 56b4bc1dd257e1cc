#pragma once
// Test-only literal transcriptions of batfill's policies, written for obviousness rather than
// speed, so that the fast policies can be compared with them job by job (tests/core on random
// workloads, tests/workload on the bundled real traces).

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "batfill/core/availability_profile.hpp"
#include "batfill/core/policy.hpp"

namespace batfill::testing {

// Of the spec policies: the pseudo-code's "Step 1/2/3" of EASY and CONSERVATIVE
// (docs/semantics.md#easy--the-specs-easy–docs/semantics.md#conservative--the-specs-conservative),
// read so that a job fitting in the free nodes now has shadow = now; quadratic.
struct RunningEnd {
  Time end;
  int nodes;
};

// "Calculate Reservation": the first planned end at which free + freed-so-far reaches `needed`.
inline Time literal_reservation(Time now, int free_nodes, std::vector<RunningEnd> running,
                                int needed) {
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

// Classic conservative backfilling as docs/semantics.md#conservative-classic--feitelson--weil-1998
// states it, without the policy's shortcuts (skipped reservations, bounded searches, indexed
// walks): at a pass after completions every reservation is taken out and put back at its earliest
// slot, in queue order; then new jobs are placed and due jobs start. For jobs that all have a run
// limit, one implicit queue and no late reports.
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

  void on_job_completed(const Job& job) override {
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

// Classic EASY as docs/semantics.md#easy-classic--lifkas-easy-mualem--feitelson-2001 states it, one
// sweep in queue order, and FCFS as docs/semantics.md#none--fcfs states it (`easy_classic` false):
// the head cascade, then the shadow time and extra nodes recomputed from the running jobs by hand.
// For jobs that all have a run limit, one implicit queue and no predictions.
class LiteralEasyClassic final : public Policy {
 public:
  explicit LiteralEasyClassic(bool easy_classic) : easy_classic_(easy_classic) {}

  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    int free_nodes = view.free_nodes;
    std::vector<RunningEnd> running;
    for (const auto& [end, nodes] : *view.releases) running.push_back({end, nodes});
    std::vector<const Job*> started;
    auto start = [&](const Job* job) {
      free_nodes -= job->nodes;
      running.push_back({view.now + job->time_limit, job->nodes});
      started.push_back(job);
    };
    std::size_t head = 0;
    while (head < view.queue.size() && view.queue[head]->nodes <= free_nodes) {
      start(view.queue[head++]);
    }
    if (!easy_classic_ || head == view.queue.size()) return started;
    const int needed = view.queue[head]->nodes;
    const Time shadow = literal_reservation(view.now, free_nodes, running, needed);
    int extra = free_nodes - needed;
    for (const RunningEnd& r : running) extra += r.end <= shadow ? r.nodes : 0;
    for (std::size_t i = head + 1; i < view.queue.size() && free_nodes > 0; ++i) {
      const Job* job = view.queue[i];
      if (job->nodes > free_nodes) continue;
      if (view.now + job->time_limit <= shadow) {
        start(job);
      } else if (job->nodes <= extra) {
        extra -= job->nodes;
        start(job);
      }
    }
    return started;
  }

 private:
  bool easy_classic_;
};

}  // namespace batfill::testing
