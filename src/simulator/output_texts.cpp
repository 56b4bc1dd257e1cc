#include "batfill/simulator/output_texts.hpp"

namespace batfill::simulator {

OutputTexts::OutputTexts(std::shared_ptr<const QueueConfig> queues, bool resizes)
    : jobs_(jobs_text_) {
  if (queues) queues_.emplace(std::move(queues));
  if (resizes) resizes_.emplace(resizes_text_);
}

void OutputTexts::job_ended(const JobRecord& job) {
  jobs_.write(job);
  metrics_.add(job);
  reasons_.add(job);
  resize_figures_.add(job);
  if (queues_) queues_->add(job);
  if (resizes_) resizes_->write(job);
}

void OutputTexts::finish(const ScheduleMetrics& metrics, RunInfo& run) {
  if (queues_) run.queue_figures = queues_->metrics();
  jobs_.flush();
  write_schedule_csv(schedule_text_, metrics, run);
}

}  // namespace batfill::simulator
