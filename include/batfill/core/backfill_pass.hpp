#pragma once
// One scheduling pass over the wait queue, shared by the spec's EASY and CONSERVATIVE: the
// queue head cascade (step 1), then a walk over the jobs behind the head (step 3), with the
// release timeline following every job started on the way (step 4 of CONSERVATIVE).
//
// The queue is never copied: a pass runs at every event and the queue can hold thousands of
// jobs, while only a few start. Started jobs are remembered by position and skipped.

#include <cstddef>
#include <vector>

#include "batfill/core/policy.hpp"
#include "batfill/core/queue_rules.hpp"
#include "batfill/core/release_timeline.hpp"

namespace batfill {

class BackfillPass {
 public:
  // `clock`: the policy's reservation clock (queue_rules.hpp), null for estimates.
  BackfillPass(const SchedulingView& view, ReservationClock* clock);

  Time now() const { return timeline_.now(); }
  const ReleaseTimeline& timeline() const { return timeline_; }
  QueueGate& gate() { return gate_; }

  // Step 1: while the queue head fits in the free nodes it starts, with no other condition
  // (spec, edge case 1). Returns the head left waiting, or nullptr when the queue is empty.
  // With queues (docs/semantics.md#queues---queues) jobs held by a slot limit, or blocked in a
  // queue that does not reserve, are passed over: the head is the first blocked job that reserves.
  const Job* start_fitting_heads();

  // Calls visit(position, job) for each job still waiting behind the current head, in queue
  // order, until visit returns false. visit may call start(position).
  template <class Visit>
  void for_each_behind_head(Visit visit);
  // The same, visiting only the positions `next` leads to: next(position) is the first position
  // from `position` on that the walk must visit (one past the queue when none is).
  template <class Next, class Visit>
  void for_each_behind_head(Next next, Visit visit);

  // Starts the waiting job at `position` in the queue.
  void start(std::size_t position);

  // The jobs started during the pass, in start order.
  std::vector<const Job*> take_started() { return std::move(started_); }

 private:
  bool is_started(std::size_t position) const;

  QueueView queue_;
  ReleaseTimeline timeline_;
  QueueGate gate_;
  std::size_t head_ = 0;
  std::vector<std::size_t> started_positions_;  // sorted
  std::vector<const Job*> started_;
};

template <class Visit>
void BackfillPass::for_each_behind_head(Visit visit) {
  for_each_behind_head([](std::size_t position) { return position; }, visit);
}

template <class Next, class Visit>
void BackfillPass::for_each_behind_head(Next next, Visit visit) {
  // started_positions_ only grows at the position being visited, so one cursor moving forward
  // with the walk tells which positions to skip.
  std::size_t cursor = 0;
  for (std::size_t position = next(head_ + 1); position < queue_.size();
       position = next(position + 1)) {
    while (cursor < started_positions_.size() && started_positions_[cursor] < position) ++cursor;
    if (cursor < started_positions_.size() && started_positions_[cursor] == position) continue;
    if (!visit(position, *queue_[position])) return;
  }
}

}  // namespace batfill
