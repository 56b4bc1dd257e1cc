#pragma once
// Corrections (docs/semantics.md#predictions-correctors-and-backfill-order): when each running job
// outlives its prediction, and the new predictions the corrector gives it then. Part of the
// Scheduler, which keeps its releases and policy in step with what the clock changes.
//
// Invariants: a running job is tracked exactly while it is correctable (there is a corrector,
// and its prediction is below its walltime and, when known, its runtime), under the key
// (start + prediction, start sequence) of its current prediction; so the first key is the next
// time a job outlives its prediction, and the corrections due are read there, not by scanning
// every running job at every request. Empty without a corrector.

#include <cstdint>
#include <map>
#include <memory>
#include <utility>

#include "batfill/core/prediction.hpp"
#include "batfill/core/running_job.hpp"

namespace batfill {

class CorrectionClock {
 public:
  explicit CorrectionClock(std::unique_ptr<Corrector> corrector);  // null: no corrections

  // The next time a tracked job outlives its prediction, kNever if none: the caller asks to be
  // woken up then.
  Time next() const { return expiries_.empty() ? kNever : expiries_.begin()->first.first; }
  // Tracks a job just started or corrected, if it is correctable. The job must not move (the
  // Scheduler's table of running jobs keeps its entries in place).
  void track(RunningJob& running);
  // Before the job ends or its prediction changes.
  void untrack(const RunningJob& running);
  // The first tracked job whose prediction expired by `now`, no longer tracked; null if none.
  RunningJob* take_expired(Time now);

  // Whether the job outlived its prediction by `now` and may get a new one.
  bool due(const RunningJob& running, Time now) const;
  // Applies the corrector while a correction is due by `now`; returns how many it made.
  int correct(RunningJob& running, Time now) const;

 private:
  bool correctable(const RunningJob& running) const;

  std::unique_ptr<Corrector> corrector_;
  std::map<std::pair<Time, std::uint64_t>, RunningJob*> expiries_;
};

}  // namespace batfill
