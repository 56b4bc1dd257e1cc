#pragma once
// The outputs of a run held in memory instead of written to files, for a program that runs
// batfill as a library (the Python package, docs/python.md): _jobs.csv as typed columns,
// _schedule.csv as its keys and value texts, PREFIX_resizes.csv as text, and the figures of the
// summary.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "batfill/core/queue_config.hpp"
#include "batfill/simulator/outputs.hpp"

namespace batfill::simulator {

// Texts one after another: value i is chars[ends[i-1], ends[i]).
struct TextColumn {
  std::string chars;
  std::vector<std::int64_t> ends;
  void add(std::string_view text) {
    chars += text;
    ends.push_back(static_cast<std::int64_t>(chars.size()));
  }
};

// _jobs.csv's columns, one entry per job in the order the jobs ended, each holding the value
// its CSV text spells: times in seconds and the stretch as the doubles nearest to their texts
// (times to the microsecond, the stretch to 6 decimals), NaN where a rejected job's field is
// empty (allocated_resources: ""). The metadata column is always empty, so it is not kept.
struct JobColumns {
  TextColumn job_id, workload_name, profile, final_state, allocated_resources;
  std::vector<double> submission_time, requested_time, starting_time, execution_time,
      finish_time, waiting_time, turnaround_time, stretch;
  std::vector<std::int64_t> requested_number_of_resources, success, consumed_energy;

  void add(const JobRecord& job);
  // Room for `jobs` entries: each column's memory is touched once, not once per doubling.
  void reserve(std::size_t jobs);
  std::size_t size() const { return success.size(); }
};

class MemoryOutputs {
 public:
  // `queues`: the configured queues whose figures are gathered (null: none).
  // `resizes`: also make the text of PREFIX_resizes.csv.
  explicit MemoryOutputs(std::shared_ptr<const QueueConfig> queues = nullptr,
                         bool resizes = false);
  // The number of jobs the run will end (the workload's records), known before it starts.
  void expect_jobs(std::size_t jobs) { jobs_.reserve(jobs); }
  void job_ended(const JobRecord& job);
  ScheduleMetrics metrics(int machine_count) const {
    return figures_.metrics.metrics(machine_count);
  }
  const RejectionReasons& reasons() const { return figures_.reasons; }
  const ResizeFigures& resize_figures() const { return figures_.resizes; }
  // Completes the outputs; sets run.queue_figures.
  void finish(const ScheduleMetrics& metrics, RunInfo& run);

  // After finish(): the jobs, _schedule.csv's row, PREFIX_resizes.csv ("" without).
  JobColumns take_jobs() { return std::move(jobs_); }
  const std::map<std::string, std::string>& schedule() const { return schedule_; }
  std::string resizes_csv() const { return resizes_text_.str(); }

 private:
  JobColumns jobs_;
  std::map<std::string, std::string> schedule_;
  std::ostringstream resizes_text_;
  std::optional<ResizesCsvWriter> resizes_;
  RunFigures figures_;
};

}  // namespace batfill::simulator
