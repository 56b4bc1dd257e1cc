// The spec's CONSERVATIVE backfilling (docs/semantics.md §2.3).
//
// Every waiting job has a shadow time computed independently from the running jobs only (as
// the EASY reservation). A later job may start if it fits now and its planned end is strictly
// before the smallest shadow of the jobs still waiting ahead of it; once started it counts as
// running for the shadows seen by the candidates after it.
//
// The literal rule recomputes all shadows for every candidate (quadratic; DR_EVT takes 143.9 s
// for 2000 jobs). Here the result is the same at near-linear cost, because a shadow depends only
// on the node count and grows with it: the smallest shadow ahead is the shadow of the smallest
// job ahead, recomputed only when that minimum or the running set changes.
// tests/core/literal_spec_test.cpp checks this against a literal transcription.
//
// Under a long queue the walk behind the head is most of the time: most jobs there need more
// nodes than are free and than the smallest job ahead, so they neither start nor change the
// window. Their node counts are kept by position in one array from pass to pass, so the walk
// passes them without reading each job.

#include <algorithm>
#include <vector>

#include "batfill/core/backfill_pass.hpp"

namespace batfill {
namespace {

// What the walk behind the head reads of each waiting job, by position in the wait queue. The
// Scheduler's queue changes between passes by the jobs the policy started and by new jobs,
// usually appended at the end (FCFS submissions): the copy drops the started ones, checks that
// the rest is the queue's beginning (one comparison of two pointer arrays) and reads only the
// new jobs. Any other change reads every job again.
class QueueCopy {
 public:
  void follow(const std::vector<const Job*>& queue) {
    drop_started();
    const bool in_step =
        jobs_.size() <= queue.size() && std::equal(jobs_.begin(), jobs_.end(), queue.begin());
    if (!in_step) {
      jobs_.clear();
      nodes_.clear();
      runtimes_.clear();
    }
    for (std::size_t position = jobs_.size(); position < queue.size(); ++position) {
      jobs_.push_back(queue[position]);
      nodes_.push_back(queue[position]->nodes);
      runtimes_.push_back(planned_runtime(*queue[position]));
    }
  }

  int nodes(std::size_t position) const { return nodes_[position]; }
  Time runtime(std::size_t position) const { return runtimes_[position]; }

  // The jobs the pass started leave the queue, and their addresses may be reused by new jobs
  // before the next follow. The walk behind the head tells each start's position; the others,
  // the heads, are looked for from the front.
  void started_behind_head(std::size_t position) { started_.push_back(position); }
  void started(const std::vector<const Job*>& jobs) {
    const std::size_t behind_head = started_.size();
    for (const Job* job : jobs) {
      const bool known = std::any_of(started_.begin(), started_.begin() + behind_head,
                                     [&](std::size_t position) { return jobs_[position] == job; });
      if (known) continue;
      const auto it = std::find(jobs_.begin(), jobs_.end(), job);
      started_.push_back(static_cast<std::size_t>(it - jobs_.begin()));
    }
  }

 private:
  // Removes the started positions, moving each run of kept entries in one copy.
  void drop_started() {
    if (started_.empty()) return;
    std::sort(started_.begin(), started_.end());
    started_.push_back(jobs_.size());  // the end of the last run
    std::size_t kept = started_.front();
    for (std::size_t i = 0; i + 1 < started_.size(); ++i) {
      const std::size_t first = started_[i] + 1;
      const std::size_t last = started_[i + 1];
      if (first >= last) continue;
      move_run(jobs_, first, last, kept);
      move_run(nodes_, first, last, kept);
      move_run(runtimes_, first, last, kept);
      kept += last - first;
    }
    jobs_.resize(kept);
    nodes_.resize(kept);
    runtimes_.resize(kept);
    started_.clear();
  }
  template <class T>
  static void move_run(std::vector<T>& values, std::size_t first, std::size_t last,
                       std::size_t to) {
    std::copy(values.begin() + static_cast<std::ptrdiff_t>(first),
              values.begin() + static_cast<std::ptrdiff_t>(last),
              values.begin() + static_cast<std::ptrdiff_t>(to));
  }

  std::vector<const Job*> jobs_;
  std::vector<int> nodes_;
  std::vector<Time> runtimes_;        // planned
  std::vector<std::size_t> started_;  // positions in jobs_
};

class SpecConservative final : public Policy {
 public:
  // The spec plans CONSERVATIVE with walltimes only (docs/semantics.md §2.9).
  bool plans_with_predictions() const override { return false; }

  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    if (view.free_nodes == 0) return {};
    queue_copy_.follow(*view.queue);
    BackfillPass pass(view, &clock_);
    bool backfilled = true;
    while (backfilled) {
      const Job* head = pass.start_fitting_heads();
      if (head == nullptr) break;
      backfilled = false;
      int smallest_ahead = head->nodes;
      Time window = pass.timeline().earliest_time_with(smallest_ahead);
      pass.for_each_behind_head([&](std::size_t position, const Job& job) {
        // A window at `now` (a job ahead fits now but did not start) blocks everyone behind
        // it: no planned end is strictly before now. The spec intends this (docs/semantics.md §2.8,
        // item 10).
        if (window <= pass.now()) return false;
        // A job that can neither start nor lower the smallest job ahead changes nothing.
        if (queue_copy_.nodes(position) >= smallest_ahead &&
            (queue_copy_.nodes(position) > pass.timeline().free_nodes() ||
             add_saturating(pass.now(), queue_copy_.runtime(position)) >= window)) {
          return true;
        }
        // A window that waits on a job without a run limit is unknown: nothing backfills.
        if (window == kNever && pass.timeline().waits_on_unlimited(smallest_ahead)) return false;
        QueueGate& gate = pass.gate();
        if (job.nodes <= pass.timeline().free_nodes() && gate.may_backfill(job) &&
            gate.within_limits(job) && planned_end(job, pass.now()) < window) {
          pass.start(position);
          queue_copy_.started_behind_head(position);
          backfilled = true;
          window = pass.timeline().earliest_time_with(smallest_ahead);
        } else if (job.nodes < smallest_ahead && gate.within_limits(job) && gate.may_reserve(job)) {
          // Only jobs that hold a reservation have a shadow that others must respect.
          smallest_ahead = job.nodes;
          window = pass.timeline().earliest_time_with(smallest_ahead);
        }
        return true;
      });
    }
    std::vector<const Job*> started = pass.take_started();
    queue_copy_.started(started);
    return started;
  }

 private:
  ReservationClock clock_;
  QueueCopy queue_copy_;
};

}  // namespace

std::unique_ptr<Policy> make_spec_conservative_policy() {
  return std::make_unique<SpecConservative>();
}

}  // namespace batfill
