#pragma once
// The outputs of a run held in memory instead of written to files, for a program that runs
// batfill as a library (the Python package, docs/python.md): the texts OutputFiles writes, byte
// for byte, and the figures of the summary.

#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "batfill/core/queue_config.hpp"
#include "batfill/simulator/outputs.hpp"

namespace batfill::simulator {

class OutputTexts {
 public:
  // `queues`: the configured queues whose figures are gathered (null: none).
  // `resizes`: also make the text of PREFIX_resizes.csv.
  explicit OutputTexts(std::shared_ptr<const QueueConfig> queues = nullptr, bool resizes = false);
  void job_ended(const JobRecord& job);
  ScheduleMetrics metrics(int machine_count) const {
    return figures_.metrics.metrics(machine_count);
  }
  const RejectionReasons& reasons() const { return figures_.reasons; }
  const ResizeFigures& resize_figures() const { return figures_.resizes; }
  // Completes the texts; sets run.queue_figures.
  void finish(const ScheduleMetrics& metrics, RunInfo& run);

  // After finish(): PREFIX_jobs.csv, PREFIX_schedule.csv and PREFIX_resizes.csv ("" without).
  std::string jobs_csv() const { return jobs_text_.str(); }
  std::string schedule_csv() const { return schedule_text_.str(); }
  std::string resizes_csv() const { return resizes_text_.str(); }

 private:
  std::ostringstream jobs_text_;
  JobsCsvWriter jobs_;
  std::ostringstream schedule_text_;
  std::ostringstream resizes_text_;
  std::optional<ResizesCsvWriter> resizes_;
  RunFigures figures_;
};

}  // namespace batfill::simulator
