#include "batfill/core/backfill_pass.hpp"

#include <algorithm>

namespace batfill {

BackfillPass::BackfillPass(const SchedulingView& view, ReservationClock* clock)
    : queue_(view.queue), timeline_(view), gate_(view, clock) {}

bool BackfillPass::is_started(std::size_t position) const {
  return std::binary_search(started_positions_.begin(), started_positions_.end(), position);
}

const Job* BackfillPass::start_fitting_heads() {
  for (; head_ < queue_.size(); ++head_) {
    if (is_started(head_)) continue;
    const Job& job = *queue_[head_];
    if (!gate_.within_limits(job)) continue;
    if (job.nodes <= timeline_.free_nodes()) {
      start(head_);
    } else if (gate_.may_reserve(job)) {
      return &job;
    }
  }
  return nullptr;
}

void BackfillPass::start(std::size_t position) {
  started_positions_.insert(
      std::upper_bound(started_positions_.begin(), started_positions_.end(), position), position);
  timeline_.start(*queue_[position]);
  gate_.start(*queue_[position]);
  started_.push_back(queue_[position]);
}

}  // namespace batfill
