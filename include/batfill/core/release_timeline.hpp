#pragma once
// Free nodes over the near future, as the spec's reservation step sees them: the nodes free now
// plus the nodes each running job releases at its planned end.
//
// Shared by the spec's EASY (one reservation for the queue head) and CONSERVATIVE (a shadow
// time for every waiting job). Jobs started during the current pass are layered on top of the
// Scheduler's releases without copying them, so a pass costs no more than the walk it needs.

#include <vector>

#include "batfill/core/policy.hpp"

namespace batfill {

class ReleaseTimeline {
 public:
  explicit ReleaseTimeline(const SchedulingView& view);

  Time now() const { return now_; }
  int free_nodes() const { return free_nodes_; }

  // `job` starts now: its nodes are taken and come back at its planned end.
  void start(const Job& job);

  // The earliest time at which `nodes` nodes are free if no other job starts: now when they are
  // free already, else the first planned end at which free + released-so-far reaches `nodes`
  // (the spec's reservation_time / shadow time), kNever if the running jobs never free enough.
  // Overdue jobs (planned end already past) count as releasing now.
  Time earliest_time_with(int nodes) const;

  // Nodes free at `time` (>= now) if no other job starts: free now plus every planned end at or
  // before `time`, all the releases of that instant included (the classic EASY's extra nodes).
  int free_nodes_at(Time time) const;

  // Whether `nodes` nodes come free only when a job without a run limit ends: the reservation's
  // start is unknown, so nothing may be planned around it (docs/semantics.md#queues---queues). A
  // reservation that is never because machines are unavailable is not such a case
  // (docs/semantics.md#edge-cases).
  bool waits_on_unlimited(int nodes) const {
    return earliest_time_with(nodes) == kNever && free_nodes_at(kNever) >= nodes;
  }

 private:
  Time now_;
  int free_nodes_;
  const PlannedReleases* running_;
  std::vector<std::pair<Time, int>> started_;  // this pass's starts, sorted by planned end
};

}  // namespace batfill
