#include "batfill/core/slot_limit.hpp"

namespace batfill {

int SlotUsage::queue_nodes(int queue) const {
  const auto it = by_queue_.find(queue);
  return it == by_queue_.end() ? 0 : it->second;
}

int SlotUsage::user_nodes(int queue, int user) const {
  const auto it = by_user_.find({queue, user});
  return it == by_user_.end() ? 0 : it->second;
}

bool SlotUsage::fits(const Job& job, const QueueConfig& config, const SlotUsage* more) const {
  const QueueSpec& queue = config.queues[static_cast<std::size_t>(job.queue_index)];
  if (queue.slot_limit != kNoSlotLimit) {
    int held = queue_nodes(job.queue_index);
    if (more != nullptr) held += more->queue_nodes(job.queue_index);
    if (held + job.nodes > queue.slot_limit) return false;
  }
  if (queue.user_slot_limit == kNoSlotLimit) return true;
  int held = user_nodes(job.queue_index, job.user);
  if (more != nullptr) held += more->user_nodes(job.queue_index, job.user);
  return held + job.nodes <= queue.user_slot_limit;
}

void SlotUsage::change(const Job& job, int nodes) {
  by_queue_[job.queue_index] += nodes;
  by_user_[{job.queue_index, job.user}] += nodes;
}

}  // namespace batfill
