#pragma once
// A job the Scheduler started, as the Scheduler, its correction clock and its resize-request
// book see it until the job ends.

#include <cstdint>

#include "batfill/common/machine_set.hpp"
#include "batfill/core/job.hpp"
#include "batfill/core/policy.hpp"

namespace batfill {

struct RunningJob {
  Job job;  // job.prediction is the current prediction
  Time start = 0;
  Time initial_prediction = 0;
  int corrections = 0;
  std::uint64_t start_sequence = 0;  // how many jobs started before it
  MachineSet machines;
  PlannedReleases::iterator release;  // its entry in the Scheduler's planned releases
};

}  // namespace batfill
