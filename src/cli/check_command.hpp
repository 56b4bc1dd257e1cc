#pragma once
// `batfill check JOBS.csv [--platform F | --nodes N] [--workload W]`: validates a Batsim
// _jobs.csv (docs/semantics.md#checking-a-schedule-batfill-check).

#include <string>
#include <vector>

namespace batfill::cli {

// Prints each violation on stdout; returns 0 when the schedule is valid, 1 otherwise.
int check_command(const std::vector<std::string>& arguments);

}  // namespace batfill::cli
