#pragma once
// When would a job start? The best estimate a policy without reservations of its own can give
// (Batsim's estimate_waiting_time): a conservative plan of the present state.

#include "batfill/core/policy.hpp"

namespace batfill {

// Plans the running jobs (until their planned ends; an overdue job as ending just after now)
// and the waiting jobs of view.queue, each in queue order at its earliest slot in an
// AvailabilityProfile, and returns the slot of `job`, which must be in view.queue. When
// `may_overtake` is false a job never starts before the ones ahead of it (plain FCFS).
// Capacity is the nodes usable now plus the nodes of the running jobs.
Time planned_start_in_queue(const Job& job, const SchedulingView& view, bool may_overtake);

}  // namespace batfill
