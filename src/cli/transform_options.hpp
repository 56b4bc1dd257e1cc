#pragma once
// `simulate --load-factor` and `--shake`: the workload transformations of
// docs/semantics.md#load-scaling-and-input-shaking---load-factor---shake as command-line options.

#include <boost/program_options.hpp>
#include <memory>
#include <string>

#include "batfill/workload/job_stream.hpp"
#include "batfill/workload/transform.hpp"

namespace batfill::cli {

boost::program_options::options_description transform_options_description();

using workload::AppliedTransforms;

// Scales the load, then shakes, as the jobs are read (the stream is replaced by one that does);
// throws std::invalid_argument for a bad value.
AppliedTransforms apply_transforms(const boost::program_options::variables_map& values,
                                   std::unique_ptr<workload::JobStream>& jobs);

}  // namespace batfill::cli
