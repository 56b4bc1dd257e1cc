#include "batfill/core/correction_clock.hpp"

namespace batfill {

CorrectionClock::CorrectionClock(std::unique_ptr<Corrector> corrector)
    : corrector_(std::move(corrector)) {}

bool CorrectionClock::correctable(const RunningJob& running) const {
  const Time prediction = running.job.prediction;
  if (corrector_ == nullptr || prediction >= running.job.time_limit) return false;
  return running.job.runtime == kNoTimeLimit || prediction < running.job.runtime;
}

bool CorrectionClock::due(const RunningJob& running, Time now) const {
  return correctable(running) && add_saturating(running.start, running.job.prediction) <= now;
}

void CorrectionClock::track(RunningJob& running) {
  if (!correctable(running)) return;
  expiries_.emplace(
      std::pair{add_saturating(running.start, running.job.prediction), running.start_sequence},
      &running);
}

void CorrectionClock::untrack(const RunningJob& running) {
  if (!correctable(running)) return;
  expiries_.erase({add_saturating(running.start, running.job.prediction), running.start_sequence});
}

RunningJob* CorrectionClock::take_expired(Time now) {
  if (expiries_.empty() || expiries_.begin()->first.first > now) return nullptr;
  RunningJob* running = expiries_.begin()->second;
  expiries_.erase(expiries_.begin());
  return running;
}

int CorrectionClock::correct(RunningJob& running, Time now) const {
  int corrections = 0;
  while (due(running, now)) {
    const Time next = corrector_->correct(running.job, running.initial_prediction,
                                          running.job.prediction, running.corrections);
    // A correction that would not extend the prediction (doubling a zero prediction) plans the
    // job until its walltime instead, so that corrections always end.
    running.job.prediction = next > running.job.prediction ? next : running.job.time_limit;
    ++running.corrections;
    ++corrections;
  }
  return corrections;
}

}  // namespace batfill
