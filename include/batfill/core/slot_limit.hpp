#pragma once
// The nodes held by running jobs per queue and per user within a queue, checked against the
// queues' slot_limit and user_slot_limit (docs/semantics.md#queues---queues).

#include <map>
#include <utility>

#include "batfill/core/job.hpp"
#include "batfill/core/queue_config.hpp"

namespace batfill {

// Only the jobs of queues that limit slots (QueueSpec::limits_slots) need to be added: no other
// count is ever read.
class SlotUsage {
 public:
  // Whether `job` may start without its queue or its user going over a limit, counting the
  // nodes held here and, when given, in `also` (the jobs a pass has started since).
  bool fits(const Job& job, const QueueConfig& config, const SlotUsage* also = nullptr) const;
  void add(const Job& job) { change(job, job.nodes); }
  void remove(const Job& job) { change(job, -job.nodes); }

 private:
  int queue_nodes(int queue) const;
  int user_nodes(int queue, int user) const;
  void change(const Job& job, int nodes);
  // Only queues and users holding nodes: a pass reads these for every candidate, and a trace
  // has hundreds of users of whom few run at once.
  std::map<int, int> by_queue_;
  std::map<std::pair<int, int>, int> by_user_;  // (queue, user)
};

}  // namespace batfill
