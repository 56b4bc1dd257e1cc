#include "batfill/core/queue_config.hpp"

#include <set>
#include <stdexcept>

#include "batfill/common/text.hpp"

namespace batfill {

QueueConfig QueueConfig::implicit() {
  QueueConfig config;
  config.queues.push_back(QueueSpec{});
  config.queues[0].name = "default";
  config.default_queue = "default";
  return config;
}

int QueueConfig::queue_index(const std::string& id) const {
  int fallback = -1;
  for (std::size_t i = 0; i < queues.size(); ++i) {
    for (const std::string& listed : queues[i].ids) {
      if (!id.empty() && listed == id) return static_cast<int>(i);
    }
    if (queues[i].name == default_queue) fallback = static_cast<int>(i);
  }
  return fallback;
}

void QueueConfig::validate() const {
  if (queues.empty()) throw std::invalid_argument("'queues' lists no queue");
  std::set<std::string> names, ids;
  for (const QueueSpec& queue : queues) {
    if (queue.name.empty()) throw std::invalid_argument("a queue has no 'name'");
    if (!names.insert(queue.name).second) {
      throw std::invalid_argument("queue name " + quoted(queue.name) + " is given twice");
    }
    for (const std::string& id : queue.ids) {
      if (!ids.insert(id).second) {
        throw std::invalid_argument("queue id " + quoted(id) + " is listed twice ('ids' of " +
                                    quoted(queue.name) + ")");
      }
    }
    if (queue.slot_limit <= 0 || queue.user_slot_limit <= 0) {
      throw std::invalid_argument("queue " + quoted(queue.name) +
                                  ": 'slot_limit' and 'user_slot_limit' must be positive");
    }
    if (queue.max_reserve_time <= 0) {
      throw std::invalid_argument("queue " + quoted(queue.name) +
                                  ": 'max_reserve_time' must be positive");
    }
  }
  if (!default_queue.empty() && names.count(default_queue) == 0) {
    throw std::invalid_argument("'default' names " + quoted(default_queue) +
                                ", which is not a queue (queues: " +
                                join(std::vector<std::string>(names.begin(), names.end())) + ")");
  }
}

}  // namespace batfill
