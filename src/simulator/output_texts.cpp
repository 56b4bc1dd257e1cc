#include "batfill/simulator/output_texts.hpp"

namespace batfill::simulator {

OutputTexts::OutputTexts(std::shared_ptr<const QueueConfig> queues, bool resizes)
    : jobs_(jobs_text_), figures_(std::move(queues)) {
  if (resizes) resizes_.emplace(resizes_text_);
}

void OutputTexts::job_ended(const JobRecord& job) {
  jobs_.write(job);
  figures_.add(job);
  if (resizes_) resizes_->write(job);
}

void OutputTexts::finish(const ScheduleMetrics& metrics, RunInfo& run) {
  if (figures_.queues) run.queue_figures = figures_.queues->metrics();
  jobs_.flush();
  write_schedule_csv(schedule_text_, metrics, run);
}

}  // namespace batfill::simulator
