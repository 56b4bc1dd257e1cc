#include "batfill/core/start_estimate.hpp"

#include <algorithm>

#include "batfill/core/availability_profile.hpp"

namespace batfill {

Time planned_start_in_queue(const Job& job, const SchedulingView& view, bool may_overtake) {
  int running_nodes = 0;
  for (const auto& [end, nodes] : *view.releases) running_nodes += nodes;
  AvailabilityProfile profile(view.free_nodes + running_nodes, view.now);
  for (const auto& [end, nodes] : *view.releases) {
    profile.reserve(view.now, std::max(end, add_saturating(view.now, 1)), nodes);
  }
  Time earliest = view.now;
  for (const Job* waiting : view.queue) {
    const Time slot = profile.earliest_fit(earliest, occupancy(*waiting), waiting->nodes);
    if (waiting == &job) return slot;
    if (slot == kNever) return kNever;  // a job ahead never starts, so neither does this one
    profile.reserve(slot, add_saturating(slot, occupancy(*waiting)), waiting->nodes);
    if (!may_overtake) earliest = slot;
  }
  return kNever;  // not in the queue
}

}  // namespace batfill
