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
// from pass to pass and following the Scheduler's events: a job queued at the end is copied at
// once; one queued before the end cuts the copy there (the jobs behind it moved back), and the
// pass reads the rest from the queue again when it gets there. A pass's starts leave the copy
// before the next event or pass, all at once.
class QueueCopy {
 public:
  struct Entry {
    int nodes;
    Time runtime;  // planned
  };

  void queue(const Job& job, std::size_t position) {
    drop_started();
    const std::size_t index = first_ + position;
    if (index > entries_.size()) return;  // beyond the copy: read at the pass
    entries_.resize(index);
    entries_.push_back(entry_of(job));
  }
  // A job that left the queue without starting, at `position` of the queue as it was.
  void removed(std::size_t position) {
    drop_started();
    const std::size_t index = first_ + position;
    if (index < entries_.size()) entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(index));
  }
  // A queue sorted again is read again at the pass.
  void reorder() {
    entries_.clear();
    first_ = 0;
    started_.clear();
  }
  // `position`: in the queue of the pass that started it.
  void started(std::size_t position) { started_.push_back(first_ + position); }

  // At the start of a pass over `queue`.
  void follow(QueueView queue) {
    drop_started();
    queue_ = queue;
  }
  // The copy of the job at `position` of the pass's queue.
  const Entry& at(std::size_t position) {
    if (first_ + position >= entries_.size()) read_rest();
    return entries_[first_ + position];
  }

 private:
  void read_rest() {
    for (std::size_t position = entries_.size() - first_; position < queue_.size(); ++position) {
      const Job& job = *queue_[position];
      entries_.push_back(entry_of(job));
    }
  }

  // A resize request's remaining time shrinks from pass to pass (docs/semantics.md §2.11): its
  // copy claims none, so that the walk always reads the request itself.
  static Entry entry_of(const Job& job) {
    return {job.nodes, job.resize_request ? 0 : planned_runtime(job)};
  }

  // Removes the started entries. Heads started in order only move the first entry; entries
  // after a backfilled job move down by one run copy each.
  void drop_started() {
    // A start beyond the copy moves none of it.
    started_.erase(std::remove_if(started_.begin(), started_.end(),
                                  [&](std::size_t index) { return index >= entries_.size(); }),
                   started_.end());
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

  QueueView queue_;                   // of the current pass
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
        const QueueCopy::Entry& copy = queue_copy_.at(position);
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
    return pass.take_started();
  }

  void on_job_queued(const Job& job, std::size_t position) override {
    queue_copy_.queue(job, position);
  }
  void on_queue_reordered(const std::vector<std::size_t>& /*previous_positions*/) override {
    queue_copy_.reorder();
  }
  void on_job_started(const Job& /*job*/, std::size_t position) override {
    queue_copy_.started(position);
  }
  void on_job_removed(const Job& /*job*/, std::size_t position) override {
    queue_copy_.removed(position);
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
