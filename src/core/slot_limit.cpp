#include "batfill/core/slot_limit.hpp"

namespace batfill {
namespace {

template <class Key>
int held(const std::map<Key, int>& usage, const Key& key) {
  const auto it = usage.find(key);
  return it == usage.end() ? 0 : it->second;
}

}  // namespace

bool SlotUsage::fits(const Job& job, const QueueConfig& config, const SlotUsage* more) const {
  const QueueSpec& queue = config.queues[static_cast<std::size_t>(job.queue_index)];
  if (queue.slot_limit != kNoSlotLimit) {
    int nodes = held(by_queue_, job.queue_index) + job.nodes;
    if (more != nullptr) nodes += held(more->by_queue_, job.queue_index);
    if (nodes > queue.slot_limit) return false;
  }
  if (queue.user_slot_limit == kNoSlotLimit) return true;
  const std::pair<int, int> user{job.queue_index, job.user};
  int nodes = held(by_user_, user) + job.nodes;
  if (more != nullptr) nodes += held(more->by_user_, user);
  return nodes <= queue.user_slot_limit;
}

void SlotUsage::change(const Job& job, int nodes) {
  by_queue_[job.queue_index] += nodes;
  by_user_[{job.queue_index, job.user}] += nodes;
}

}  // namespace batfill
