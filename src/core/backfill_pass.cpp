#include "batfill/core/backfill_pass.hpp"

#include <algorithm>

namespace batfill {

BackfillPass::BackfillPass(const SchedulingView& view) : queue_(*view.queue), timeline_(view) {}

bool BackfillPass::is_started(std::size_t position) const {
  return std::binary_search(started_positions_.begin(), started_positions_.end(), position);
}

const Job* BackfillPass::start_fitting_heads() {
  for (; head_ < queue_.size(); ++head_) {
    if (is_started(head_)) continue;
    if (queue_[head_]->nodes > timeline_.free_nodes()) return queue_[head_];
    start(head_);
  }
  return nullptr;
}

void BackfillPass::start(std::size_t position) {
  started_positions_.insert(
      std::upper_bound(started_positions_.begin(), started_positions_.end(), position), position);
  timeline_.start(*queue_[position]);
  started_.push_back(queue_[position]);
}

}  // namespace batfill
