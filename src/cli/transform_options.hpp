#pragma once
// `simulate --load-factor` and `--shake`: the workload transformations of docs/semantics.md §5.8
// as command-line options.

#include <boost/program_options.hpp>
#include <string>

#include "batfill/workload/workload.hpp"

namespace batfill::cli {

boost::program_options::options_description transform_options_description();

// What was applied, as the summary and _schedule.csv report it ("" when not used).
struct AppliedTransforms {
  std::string summary;      // one line for the run summary
  std::string load_factor;  // "1.3"
  std::string shake;        // "SEED:PCT"
};

// Whether the options change the workload: only then is it read whole (docs/semantics.md §5.11).
bool transforms_requested(const boost::program_options::variables_map& values);

// Scales the load, then shakes; throws std::invalid_argument for a bad value.
AppliedTransforms apply_transforms(const boost::program_options::variables_map& values,
                                   workload::Workload& workload);

}  // namespace batfill::cli
