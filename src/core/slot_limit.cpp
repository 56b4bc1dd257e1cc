#include "batfill/core/slot_limit.hpp"

namespace batfill {
namespace {

int held(const std::map<int, int>& usage, int key) {
  const auto it = usage.find(key);
  return it == usage.end() ? 0 : it->second;
}

}  // namespace

bool SlotUsage::fits(const Job& job, const QueueConfig& config) const {
  const QueueSpec& queue = config.queues[static_cast<std::size_t>(job.queue_index)];
  if (queue.slot_limit != kNoSlotLimit &&
      held(by_queue_, job.queue_index) + job.nodes > queue.slot_limit) {
    return false;
  }
  if (queue.user_slot_limit == kNoSlotLimit) return true;
  const auto it = by_user_.find({job.queue_index, job.user});
  return (it == by_user_.end() ? 0 : it->second) + job.nodes <= queue.user_slot_limit;
}

void SlotUsage::change(const Job& job, int nodes) {
  by_queue_[job.queue_index] += nodes;
  by_user_[{job.queue_index, job.user}] += nodes;
}

}  // namespace batfill
