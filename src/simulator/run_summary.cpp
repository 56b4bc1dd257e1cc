#include "batfill/simulator/run_summary.hpp"

#include "batfill/common/text.hpp"

namespace batfill::simulator {

void write_run_summary(std::ostream& out, const ReplayHeading& heading,
                       const RejectionReasons& reasons, const ResizeFigures& resizes,
                       const ScheduleMetrics& metrics, const RunInfo& run) {
  const workload::Workload& workload = heading.jobs.workload();
  out << "batfill simulate: " << workload.path << " ("
      << count_of(static_cast<long long>(heading.jobs.record_count()), "record") << ") on "
      << count_of(heading.machine_count, "node") << ", " << heading.scheduler << '\n';
  if (!heading.transforms.empty()) out << "  " << heading.transforms << '\n';
  if (workload.time_limits_from_runtime > 0) {
    out << "  " << count_of(workload.time_limits_from_runtime, "job")
        << " had no requested time: their runtime was used as the limit\n";
  }
  for (const std::string& warning : workload.warnings) out << "  " << warning << '\n';
  write_summary(out, reasons, metrics, run);
  write_resize_summary(out, resizes);
}

}  // namespace batfill::simulator
