#pragma once
// Batsim-compatible output files, so evalys and existing analysis scripts read them unchanged
// (Batsim 4's columns and formats).

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "batfill/core/queue_config.hpp"
#include "batfill/simulator/job_record.hpp"

namespace batfill::simulator {

// PREFIX_jobs.csv: Batsim 4's columns in Batsim's order, times with 6 decimals, one row per job
// in the order the jobs ended (completion or rejection), as Batsim 4 writes them.
void write_jobs_csv(std::ostream& out, const std::vector<JobRecord>& jobs);

// One configured queue's figures, over its executed jobs.
struct QueueMetrics {
  std::string name;
  int jobs = 0;  // executed
  double mean_waiting_time = 0;
  double mean_bounded_slowdown = 0;
};

struct RunInfo {
  std::string version;           // batsim_version column: "batfill <version>"
  double reading_seconds = 0;     // wall time spent reading the workload
  double scheduling_seconds = 0;  // wall time spent in the decision process
  double simulation_seconds = 0;  // wall time of the run so far: reading and simulating
  // Workload transformations in force (docs/semantics.md §5.8); written only when used, so an
  // untransformed run's files stay exactly Batsim's.
  std::string load_factor;  // "" when 1
  std::string shake;        // "SEED:PCT", "" without shaking
  // With --queues (docs/semantics.md §2.10): the summary and _schedule.csv add each queue's
  // job count, mean wait and mean bounded slowdown. Null without, so the files stay Batsim's.
  std::shared_ptr<const QueueConfig> queues;
  std::vector<QueueMetrics> queue_figures;  // filled by write_output_files
};

std::vector<QueueMetrics> queue_metrics(const std::vector<JobRecord>& jobs,
                                        const QueueConfig& config);

// PREFIX_schedule.csv: one header row and one value row, keys in lexicographic order like
// Batsim's, with batfill's `utilization` and `mean_bounded_slowdown` added.
void write_schedule_csv(std::ostream& out, const ScheduleMetrics& metrics, const RunInfo& run);

// The human summary printed on stdout after a run.
void write_summary(std::ostream& out, const std::vector<JobRecord>& jobs,
                   const ScheduleMetrics& metrics, const RunInfo& run);

// Writes PREFIX_jobs.csv and PREFIX_schedule.csv; throws std::runtime_error naming the file when
// it cannot be written.
void write_output_files(const std::string& prefix, const std::vector<JobRecord>& jobs,
                        const ScheduleMetrics& metrics, const RunInfo& run);

}  // namespace batfill::simulator
