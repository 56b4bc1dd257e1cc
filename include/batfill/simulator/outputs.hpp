#pragma once
// Batsim-compatible output files, so evalys and existing analysis scripts read them unchanged
// (Batsim 4's columns and formats).

#include <array>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "batfill/core/queue_config.hpp"
#include "batfill/simulator/job_record.hpp"
#include "batfill/simulator/power_outputs.hpp"
#include "batfill/simulator/resize_outputs.hpp"

namespace batfill::simulator {

// PREFIX_jobs.csv: Batsim 4's columns in Batsim's order, times with 6 decimals, one row per job
// in the order the jobs ended (completion or rejection), as Batsim 4 writes them.
void write_jobs_csv(std::ostream& out, const std::vector<JobRecord>& jobs);

// The same rows, written as jobs end so that a replay forgets each job once written: the
// header at construction, rows buffered in blocks, the rest on flush() (or destruction).
class JobsCsvWriter {
 public:
  explicit JobsCsvWriter(std::ostream& out);
  ~JobsCsvWriter();
  JobsCsvWriter(const JobsCsvWriter&) = delete;
  JobsCsvWriter& operator=(const JobsCsvWriter&) = delete;
  void write(const JobRecord& job);
  void flush();

 private:
  std::ostream& out_;
  std::string rows_;
};

// Rejections grouped by their bare reason, without the record's position or the job, for the
// summary (docs/semantics.md#run-summary), gathered as jobs end.
class RejectionReasons {
 public:
  void add(const JobRecord& job);
  const std::map<std::string, int>& groups() const { return groups_; }

 private:
  std::map<std::string, int> groups_;
};

// One configured queue's figures, over its executed jobs (docs/semantics.md#queues---queues).
struct QueueMetrics {
  std::string name;
  int jobs = 0;  // executed
  double mean_waiting_time = 0;
  double mean_bounded_slowdown = 0;
};

// QueueMetrics of every configured queue, gathered as jobs end.
class QueueFigures {
 public:
  explicit QueueFigures(std::shared_ptr<const QueueConfig> config);
  void add(const JobRecord& job);
  std::vector<QueueMetrics> metrics() const;

 private:
  std::shared_ptr<const QueueConfig> config_;
  std::vector<QueueMetrics> sums_;  // by queue index: counts and sums until metrics()
};

// What the summary and _schedule.csv need of the ended jobs, gathered as they end: the metrics,
// the rejections' reasons, the resize requests' figures and, with queues, each queue's.
struct RunFigures {
  explicit RunFigures(std::shared_ptr<const QueueConfig> queue_config);
  void add(const JobRecord& job);

  MetricsAccumulator metrics;
  RejectionReasons reasons;
  ResizeFigures resizes;
  std::optional<QueueFigures> queues;  // empty without queues
};

struct RunInfo {
  std::string version;            // batsim_version column: "batfill <version>"
  double reading_seconds = 0;     // wall time spent reading the workload
  double scheduling_seconds = 0;  // wall time spent in the decision process
  double simulation_seconds = 0;  // wall time of the run so far: reading and simulating
  // Processor time (user + system) of the same two spans: on a shared machine wall times
  // follow the load, so speed is compared on these.
  double reading_cpu_seconds = 0;
  double cpu_seconds = 0;
  // Workload transformations in force
  // (docs/semantics.md#load-scaling-and-input-shaking---load-factor---shake); written only when
  // used, so an untransformed run's files stay exactly Batsim's.
  std::string load_factor;  // "" when 1
  std::string shake;        // "SEED:PCT", "" without shaking
  // With --queues (docs/semantics.md#queues---queues): the summary and _schedule.csv add each
  // queue's job count, mean wait and mean bounded slowdown. Null without, so the files stay
  // Batsim's.
  std::shared_ptr<const QueueConfig> queues;
  std::vector<QueueMetrics> queue_figures;  // filled by OutputFiles::finish
  // With --energy (docs/protocol.md#the-power-model-of-the-stand-in): _schedule.csv's energy
  // keys hold them and the summary prints them; without, those keys stay Batsim's zeros.
  std::optional<EnergyFigures> energy;
};

// PREFIX_schedule.csv: one header row and one value row, keys in lexicographic order like
// Batsim's, with batfill's `utilization` and `mean_bounded_slowdown` added.
void write_schedule_csv(std::ostream& out, const ScheduleMetrics& metrics, const RunInfo& run);
// That file's keys and the texts of their values.
std::map<std::string, std::string> schedule_row(const ScheduleMetrics& metrics, const RunInfo& run);

// The human summary printed on stdout after a run.
void write_summary(std::ostream& out, const RejectionReasons& reasons,
                   const ScheduleMetrics& metrics, const RunInfo& run);

// PREFIX_jobs.csv written while the simulation runs, one row as each job ends, and
// PREFIX_schedule.csv at the end; the metrics and the summary's reasons are gathered on the way.
// Each file is written as NAME.partial and renamed at finish(), when the whole run is written;
// a run that fails before (an error, a signal, a full disk) leaves none of its files, and the
// files of an earlier run under the prefix stay as they were. Throws std::runtime_error naming
// the file when one cannot be written.
class OutputFiles {
 public:
  // `queues`: the configured queues whose figures are gathered (null: none).
  // `resizes`: also write PREFIX_resizes.csv (resize_outputs.hpp).
  // `energy`: also write the energy traces (power_outputs.hpp), through power_traces().
  explicit OutputFiles(const std::string& prefix,
                       std::shared_ptr<const QueueConfig> queues = nullptr, bool resizes = false,
                       bool energy = false);
  ~OutputFiles();
  void job_ended(const JobRecord& job);
  // The metrics of the jobs ended so far.
  ScheduleMetrics metrics(int machine_count) const {
    return figures_.metrics.metrics(machine_count);
  }
  const RejectionReasons& reasons() const { return figures_.reasons; }
  const ResizeFigures& resize_figures() const { return figures_.resizes; }
  PowerTraces* power_traces() { return power_traces_ ? &*power_traces_ : nullptr; }
  // The files written, for the summary: "PREFIX_jobs.csv, PREFIX_schedule.csv" and so on.
  std::string names() const;
  // Completes PREFIX_jobs.csv, writes PREFIX_schedule.csv and gives the files their names.
  void finish(const ScheduleMetrics& metrics, RunInfo& run);  // sets run.queue_figures

 private:
  static constexpr const char* kJobs = "_jobs.csv";
  static constexpr const char* kSchedule = "_schedule.csv";
  static constexpr const char* kResizes = "_resizes.csv";
  static constexpr std::array<const char*, 3> kEnergyFiles = {
      "_consumed_energy.csv", "_machine_states.csv", "_pstate_changes.csv"};

  std::string partial(const char* file) const;
  void publish();

  std::string prefix_;
  std::ofstream jobs_file_;
  JobsCsvWriter jobs_;
  RunFigures figures_;
  std::ofstream resizes_file_;  // open only when the run makes resize requests
  std::optional<ResizesCsvWriter> resizes_;
  std::array<std::ofstream, 3> energy_files_;  // open only with --energy, as kEnergyFiles
  std::optional<PowerTraces> power_traces_;
  bool finished_ = false;
};

}  // namespace batfill::simulator
