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
// window. Their node counts and planned runtimes are kept by position from pass to pass, so the
// walk passes them without reading each job.

#include <algorithm>
#include <vector>

#include "batfill/core/backfill_pass.hpp"

namespace batfill {
namespace {

// What the walk behind the head reads of each waiting job, by position in the wait queue, kept
// from pass to pass. The Scheduler's queue changes between passes by the jobs the policy
// started and by new jobs, usually appended at the end (FCFS submissions): the copy drops the
// started ones and is checked where it is read, one pointer per position (the queue's, which
// the walk reads anyway); from a position where it differs, it is read again from the queue.
class QueueCopy {
 public:
  struct Entry {
    const Job* job;
    int nodes;
    Time runtime;  // planned
  };

  // At the start of a pass over `queue`.
  void follow(QueueView queue) {
    queue_ = queue;
    drop_started();
  }

  // The copy of `job`, at `position` of the queue.
  const Entry& at(std::size_t position, const Job& job) {
    const std::size_t index = first_ + position;
    if (index >= entries_.size() || entries_[index].job != &job) read_from(position);
    return entries_[index];
  }

  // The jobs the pass started leave the queue, and their addresses may be reused by new jobs
  // before the next pass. The walk behind the head tells each start's position; the others,
  // the heads, are looked for from the front.
  void started_behind_head(std::size_t position) { started_.push_back(first_ + position); }
  void started(const std::vector<const Job*>& jobs) {
    const std::size_t behind_head = started_.size();
    for (const Job* job : jobs) {
      const auto is_job = [&](std::size_t index) { return entries_[index].job == job; };
      if (std::any_of(started_.begin(), started_.begin() + behind_head, is_job)) continue;
      const auto it = std::find_if(entries_.begin() + static_cast<std::ptrdiff_t>(first_),
                                   entries_.end(), [&](const Entry& e) { return e.job == job; });
      if (it == entries_.end()) {  // never read: the copy is dropped
        entries_.clear();
        first_ = 0;
        started_.clear();
        return;
      }
      started_.push_back(static_cast<std::size_t>(it - entries_.begin()));
    }
  }

 private:
  // Reads the queue again from `position`, or from the end of the copy if that comes first.
  void read_from(std::size_t position) {
    const std::size_t from = std::min(position, entries_.size() - first_);
    entries_.resize(first_ + from);
    for (std::size_t p = from; p < queue_.size(); ++p) {
      const Job& job = *queue_[p];
      entries_.push_back({&job, job.nodes, planned_runtime(job)});
    }
  }

  // Removes the started entries. Heads started in order only move the first entry; entries
  // after a backfilled job move down by one run copy each.
  void drop_started() {
    if (started_.empty()) return;
    std::sort(started_.begin(), started_.end());
    std::size_t heads = 0;
    while (heads < started_.size() && started_[heads] == first_ + heads) ++heads;
    first_ += heads;
    started_.erase(started_.begin(), started_.begin() + static_cast<std::ptrdiff_t>(heads));
    if (!started_.empty()) {
      started_.push_back(entries_.size());  // the end of the last run
      std::size_t kept = started_.front();
      for (std::size_t i = 0; i + 1 < started_.size(); ++i) {
        const auto run = entries_.begin() + static_cast<std::ptrdiff_t>(started_[i] + 1);
        const auto run_end = entries_.begin() + static_cast<std::ptrdiff_t>(started_[i + 1]);
        if (run >= run_end) continue;
        std::copy(run, run_end, entries_.begin() + static_cast<std::ptrdiff_t>(kept));
        kept += static_cast<std::size_t>(run_end - run);
      }
      entries_.resize(kept);
      started_.clear();
    }
    if (2 * first_ > entries_.size()) {  // reclaim the dropped heads now and then
      entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(first_));
      first_ = 0;
    }
  }

  QueueView queue_;
  std::vector<Entry> entries_;        // from first_ on, by position in the queue
  std::size_t first_ = 0;             // entries before it belong to started heads
  std::vector<std::size_t> started_;  // indices in entries_
};

class SpecConservative final : public Policy {
 public:
  // The spec plans CONSERVATIVE with walltimes only (docs/semantics.md §2.9).
  bool plans_with_predictions() const override { return false; }

  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    if (view.free_nodes == 0) return {};
    queue_copy_.follow(view.queue);
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
        const QueueCopy::Entry& copy = queue_copy_.at(position, job);
        if (copy.nodes >= smallest_ahead && (copy.nodes > pass.timeline().free_nodes() ||
                                             add_saturating(pass.now(), copy.runtime) >= window)) {
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
