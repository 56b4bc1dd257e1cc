#pragma once
// The summary of one replay, as `batfill simulate` prints it on stdout and the Python replay
// returns it: one function for both, so that the two never word a run differently.

#include <ostream>
#include <string>

#include "batfill/simulator/outputs.hpp"
#include "batfill/workload/job_stream.hpp"

namespace batfill::simulator {

// Who ran what: the workload and its records, the nodes and `scheduler`, the transforms in
// force (`transforms`, "" for none).
struct ReplayHeading {
  const workload::JobStream& jobs;
  int machine_count = 0;
  std::string scheduler;
  std::string transforms;
};

// The heading's lines, the workload's notes and warnings, then the run's figures
// (write_summary, write_resize_summary).
void write_run_summary(std::ostream& out, const ReplayHeading& heading,
                       const RejectionReasons& reasons, const ResizeFigures& resizes,
                       const ScheduleMetrics& metrics, const RunInfo& run);

}  // namespace batfill::simulator
