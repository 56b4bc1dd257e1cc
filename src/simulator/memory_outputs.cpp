#include "batfill/simulator/memory_outputs.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "batfill/common/machine_set.hpp"

namespace batfill::simulator {
namespace {

// The double nearest to the 6-decimal text _jobs.csv writes for `value`, so that the column
// holds what the file says (and pandas' "%.6f" writes that text back).
double as_written(double value) {
  if (!std::isfinite(value)) return value;
  char text[64];
  const char* end = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 6).ptr;
  double written = value;
  std::from_chars(text, end, written);
  return written;
}

}  // namespace

void JobColumns::add(const JobRecord& job) {
  constexpr double kEmpty = std::numeric_limits<double>::quiet_NaN();
  if (job.consumed_energy) {
    // Replays in memory run without --energy; a joule count would not fit the int64 column.
    throw std::logic_error("a job's consumed energy in a replay kept in memory");
  }
  job_id.add(job.job.id);
  workload_name.add(job.workload_name);
  profile.add(job.profile);
  final_state.add(state_name(job.state));
  submission_time.push_back(to_seconds(job.job.submit_time));
  requested_number_of_resources.push_back(job.job.nodes);
  requested_time.push_back(job.job.time_limit == kNoTimeLimit ? -1.0
                                                              : to_seconds(job.job.time_limit));
  success.push_back(job.state == FinalState::kCompletedSuccessfully ? 1 : 0);
  consumed_energy.push_back(-1);
  const bool executed = job.executed();
  starting_time.push_back(executed ? to_seconds(job.start_time) : kEmpty);
  execution_time.push_back(executed ? to_seconds(job.execution_time()) : kEmpty);
  finish_time.push_back(executed ? to_seconds(job.finish_time) : kEmpty);
  waiting_time.push_back(executed ? to_seconds(job.waiting_time()) : kEmpty);
  turnaround_time.push_back(executed ? to_seconds(job.turnaround_time()) : kEmpty);
  stretch.push_back(executed ? as_written(job.stretch()) : kEmpty);
  if (executed) {
    append_machine_set(allocated_resources.chars, job.machines);
    allocated_resources.ends.push_back(
        static_cast<std::int64_t>(allocated_resources.chars.size()));
  } else {
    allocated_resources.add("");
  }
}

void JobColumns::reserve(std::size_t jobs) {
  for (TextColumn* column : {&job_id, &workload_name, &profile, &final_state, &allocated_resources}) {
    column->ends.reserve(jobs);
  }
  for (std::vector<double>* column : {&submission_time, &requested_time, &starting_time,
                                      &execution_time, &finish_time, &waiting_time,
                                      &turnaround_time, &stretch}) {
    column->reserve(jobs);
  }
  for (std::vector<std::int64_t>* column :
       {&requested_number_of_resources, &success, &consumed_energy}) {
    column->reserve(jobs);
  }
}

MemoryOutputs::MemoryOutputs(std::shared_ptr<const QueueConfig> queues, bool resizes)
    : figures_(std::move(queues)) {
  if (resizes) resizes_.emplace(resizes_text_);
}

void MemoryOutputs::job_ended(const JobRecord& job) {
  jobs_.add(job);
  figures_.add(job);
  if (resizes_) resizes_->write(job);
}

void MemoryOutputs::finish(const ScheduleMetrics& metrics, RunInfo& run) {
  if (figures_.queues) run.queue_figures = figures_.queues->metrics();
  schedule_ = schedule_row(metrics, run);
}

}  // namespace batfill::simulator
