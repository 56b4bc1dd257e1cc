#pragma once
// The order of the wait queue (--order). The queue head is the job the policies protect.
// Names follow batsched's queue orders.

#include <string>
#include <vector>

#include "batfill/core/job.hpp"

namespace batfill {

enum class QueueOrder {
  kFcfs,          // submission time, then id (docs/semantics.md#order-of-same-instant-submissions)
  kLcfs,          // latest submission first
  kAscWalltime,   // shortest time limit first (SJF on the user's estimate)
  kDescWalltime,  // longest time limit first
  kAscSize,       // fewest nodes first
  kDescSize,      // most nodes first
  kDescSlowdown,  // highest current slowdown first (see queue_order.cpp)
  kDescBoundedSlowdown,  // highest current bounded slowdown first
  // Score orders, smallest score first (queue_order.cpp); keep them together, kWfp3 to kF4.
  kWfp3,               // (wait / walltime)^3 * nodes, largest first
  kUnicep,             // wait / (log2(nodes) * walltime), largest first
  kWfp3Rlscheduler,    // WFP3 with RLScheduler's waiting time: fixed at submission
  kUnicepRlscheduler,  // UNICEP with RLScheduler's waiting time
  kF1,                 // Carastan-Santos and de Camargo's learned functions F1 to F4
  kF2,
  kF3,
  kF4,
};

// Throws std::invalid_argument listing the valid names.
QueueOrder parse_queue_order(const std::string& name);
std::string to_string(QueueOrder order);
std::vector<std::string> queue_order_names();

// Whether the order changes as time passes (slowdown-based orders); such a queue is re-sorted
// at every scheduling pass.
bool depends_on_time(QueueOrder order);

// Strict weak order: true when `a` is ahead of `b` at time `now`. Ties always fall back to
// submission time, then id, so the order is total and reproducible.
bool queued_before(QueueOrder order, const Job& a, const Job& b, Time now);

}  // namespace batfill
