#pragma once
// Workload transformations for experiments: load scaling and input shaking
// (docs/semantics.md#load-scaling-and-input-shaking---load-factor---shake). Both change submit
// times only; runtimes, sizes and limits stay.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "batfill/workload/job_stream.hpp"
#include "batfill/workload/workload.hpp"

namespace batfill::workload {

// Multiplies the load by `factor`: every time between the first submission and a job's
// submission is divided by it (rounded to the microsecond), so inter-arrival times scale by
// 1/factor. Throws std::invalid_argument unless factor is finite and > 0.
void scale_load(Workload& workload, double factor);
void check_load_factor(double factor);  // the same check alone

// Tsafrir, Ouaknine and Feitelson's input shaking: each submit time moves by a uniform random
// amount within ±fraction of the job's gap to the previous submission (in trace order), never
// before 0. Reproducible: the same seed gives the same workload on every platform.
struct Shake {
  std::uint64_t seed = 0;
  double fraction = 0.05;
};

// "SEED" or "SEED:PCT" (PCT in percent, 0 to 100). Throws std::invalid_argument naming the text.
Shake parse_shake(const std::string& text);

void shake_submissions(Workload& workload, const Shake& shake);

// The jobs of `jobs` (in submit order) with both transformations applied as they are read, in
// the order scale_load and then shake_submissions give a workload read whole, so that a
// transformed replay streams too (docs/semantics.md#streaming-replay). Shaking holds the jobs a
// shaken submission may still overtake. Throws std::invalid_argument as scale_load for a bad
// factor, and for a shaking fraction outside [0, 1] (parse_shake's range).
std::unique_ptr<JobStream> transform_jobs(std::unique_ptr<JobStream> jobs, double load_factor,
                                          std::optional<Shake> shake);

// What a replay applied, as its summary and _schedule.csv report it ("" when not used).
struct AppliedTransforms {
  std::string summary;      // one line for the run summary
  std::string load_factor;  // "1.3"
  std::string shake;        // "SEED:PCT"
};

// transform_jobs on `jobs` (replaced by the transformed stream), and what it applied. Throws
// std::invalid_argument for a bad value, the load factor checked first.
AppliedTransforms apply_transforms(std::unique_ptr<JobStream>& jobs, double load_factor,
                                   const std::optional<Shake>& shake);

}  // namespace batfill::workload
