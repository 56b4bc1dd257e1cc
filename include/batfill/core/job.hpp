#pragma once
// What the scheduler knows of a job: what the user asked for, who asked, and the runtime the
// scheduler predicts for it (docs/semantics.md#predictions-correctors-and-backfill-order). The
// actual runtime is known only in replays.

#include <cstddef>
#include <functional>
#include <string>

#include "batfill/common/time.hpp"

namespace batfill {

// Batsim's "workload!name" form, or a plain trace id such as an SWF job number.
using JobId = std::string;

// The hash of the core's tables by job id. libstdc++ counts std::hash<std::string> as slow and
// then looks up a table of up to 20 entries by comparing the id with every key in turn (a
// string comparison per running job at every start and completion); with any other hasher it
// hashes. Not noexcept, so that each entry still keeps its hash and a lookup compares hashes
// before ids.
// Where a job is in its life: the one stage every layer that follows a job uses (the stand-in,
// the adapter). How an ended job ended is the outcome Batsim reports (`FinalState` in the
// outputs), not a stage.
enum class JobStage { kNotSubmitted, kWaiting, kRunning, kEnded };

struct JobIdHash {
  std::size_t operator()(const JobId& id) const { return std::hash<JobId>{}(id); }
};

struct Job {
  JobId id;
  Time submit_time = 0;  // when the job entered the system
  int nodes = 0;         // requested machines
  // A resize request (docs/semantics.md#resize-requests-of-running-jobs): `nodes` more machines for
  // a running job. The Scheduler's ResizeBook keeps which job, aside, as requests are rare. Such an
  // entry never holds a reservation, and its time limit and prediction are what remains of that
  // job's.
  bool resize_request = false;
  Time time_limit = kNoTimeLimit;  // walltime: the job is killed when it reaches it
  int user = -1;                   // the submitting user, -1 when the input has none
  // The queue id of the input (SWF field 15, Batsim's `queue`), "" when it has none, and the
  // configured queue it resolves to, set by the Scheduler (docs/semantics.md#queues---queues).
  std::string queue;
  int queue_index = 0;
  // The actual runtime, known only in replays (SWF field 4, a delay profile): only the
  // clairvoyant predictor reads it. kNoTimeLimit when unknown.
  Time runtime = kNoTimeLimit;
  // The planned runtime, set by the Scheduler at submission from its Predictor and raised by
  // its Corrector; kNoTimeLimit until then, which plans with the walltime.
  Time prediction = kNoTimeLimit;

  bool has_time_limit() const { return time_limit != kNoTimeLimit; }
};

// The id of a job's `rank`-th resize request (from 1): "ID#resizeK"
// (docs/semantics.md#resize-requests-of-running-jobs).
inline JobId resize_request_id(const JobId& job, std::size_t rank) {
  return job + "#resize" + std::to_string(rank);
}

// What planning uses as the job's runtime: its prediction, else its walltime (docs/semantics.md
// docs/semantics.md#predictions-correctors-and-backfill-order). With the default predictor
// (`requested`) both are the walltime, the spec's pessimistic planning.
inline Time planned_runtime(const Job& job) {
  return job.prediction != kNoTimeLimit ? job.prediction : job.time_limit;
}

// When a job started at `start` is planned to end: start + planned runtime, kNever without one.
inline Time planned_end(const Job& job, Time start) {
  return add_saturating(start, planned_runtime(job));
}

// Order of jobs that arrive in the same instant
// (docs/semantics.md#order-of-same-instant-submissions): by id, numerically when the job names are
// numbers ("w0!9" before "w0!10"), otherwise as plain strings. Never message order.
bool job_id_less(const JobId& a, const JobId& b);

}  // namespace batfill
