#include "batfill/core/slot_limit.hpp"

namespace batfill {
namespace {

template <class Map, class Key>
int held(const Map& usage, const Key& key) {
  const auto it = usage.find(key);
  return it == usage.end() ? 0 : it->second;
}

// Adds `nodes` to `key`'s count, forgetting keys that come back to zero.
template <class Map, class Key>
void add_nodes(Map& usage, const Key& key, int nodes) {
  const auto it = usage.emplace(key, 0).first;
  it->second += nodes;
  if (it->second == 0) usage.erase(it);
}

}  // namespace

int SlotUsage::queue_nodes(int queue) const { return held(by_queue_, queue); }

int SlotUsage::user_nodes(int queue, int user) const {
  return held(by_user_, std::pair{queue, user});
}

bool SlotUsage::fits(const Job& job, const QueueConfig& config, const SlotUsage* also) const {
  const QueueSpec& queue = config.queues[static_cast<std::size_t>(job.queue_index)];
  if (queue.slot_limit != kNoSlotLimit) {
    const int in_queue =
        queue_nodes(job.queue_index) + (also ? also->queue_nodes(job.queue_index) : 0);
    if (in_queue + job.nodes > queue.slot_limit) return false;
  }
  if (queue.user_slot_limit == kNoSlotLimit) return true;
  const int of_user = user_nodes(job.queue_index, job.user) +
                      (also ? also->user_nodes(job.queue_index, job.user) : 0);
  return of_user + job.nodes <= queue.user_slot_limit;
}

void SlotUsage::change(const Job& job, int nodes) {
  add_nodes(by_queue_, job.queue_index, nodes);
  add_nodes(by_user_, std::pair{job.queue_index, job.user}, nodes);
}

}  // namespace batfill
