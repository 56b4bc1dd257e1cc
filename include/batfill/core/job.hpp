#pragma once
// What the scheduler knows of a job: never its real runtime, only what the user asked for.

#include <string>

#include "batfill/common/time.hpp"

namespace batfill {

// Batsim's "workload!name" form, or a plain trace id such as an SWF job number.
using JobId = std::string;

struct Job {
  JobId id;
  Time submit_time = 0;          // when the job entered the system
  int nodes = 0;                 // requested machines
  Time time_limit = kNoTimeLimit;  // walltime; planning always uses start + time_limit

  bool has_time_limit() const { return time_limit != kNoTimeLimit; }
};

// When a job started at `start` is planned to end: start + time_limit, or kNever without a
// limit. Planning always uses the limit, never the real runtime (spec, "Planning (Pessimistic)").
inline Time planned_end(const Job& job, Time start) {
  return add_saturating(start, job.time_limit);
}

// Order of jobs that arrive in the same instant (docs/semantics.md §1.3): by id, numerically when the job
// names are numbers ("w0!9" before "w0!10"), otherwise as plain strings. Never message order.
bool job_id_less(const JobId& a, const JobId& b);

}  // namespace batfill
