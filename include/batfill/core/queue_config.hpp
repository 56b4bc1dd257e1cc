#pragma once
// LSF-style queues (docs/semantics.md#queues---queues): each job belongs to one configured queue,
// which sets its priority, whether it may reserve nodes and backfill into other jobs' reservations,
// and caps on the nodes its running jobs hold.

#include <limits>
#include <string>
#include <vector>

#include "batfill/common/time.hpp"

namespace batfill {

// A slot limit that never binds.
inline constexpr int kNoSlotLimit = std::numeric_limits<int>::max();

struct QueueSpec {
  std::string name;
  std::vector<std::string> ids;  // the queue ids of the input (SWF field 15, Batsim `queue`)
  int priority = 0;              // higher runs first
  bool backfill = true;          // its jobs may start in slots reserved for another job
  bool slot_reserve = true;      // its jobs get reservations
  Time max_reserve_time = kNoTimeLimit;  // a reservation held this long is released
  int slot_limit = kNoSlotLimit;         // nodes of the queue's running jobs
  int user_slot_limit = kNoSlotLimit;    // nodes of one user's running jobs in the queue

  // Whether its running jobs' nodes are counted: only a limit reads the counts.
  bool limits_slots() const {
    return slot_limit != kNoSlotLimit || user_slot_limit != kNoSlotLimit;
  }
};

struct QueueConfig {
  std::vector<QueueSpec> queues;
  std::string default_queue;  // the name of the queue of unmatched jobs; "" rejects them

  // The configuration without --queues: one queue that reserves and backfills, no limits.
  static QueueConfig implicit();

  // The index of the queue of a job whose input queue id is `id` ("" when it has none): the
  // queue listing it, else the default; -1 when neither exists.
  int queue_index(const std::string& id) const;

  // Throws std::invalid_argument naming the problem: no queue, duplicate names or ids, a
  // default that is not a queue, negative limits or times.
  void validate() const;
};

}  // namespace batfill
