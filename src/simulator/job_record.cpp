#include "batfill/simulator/job_record.hpp"

#include <algorithm>
#include <limits>

namespace batfill::simulator {

const char* state_name(FinalState state) {
  switch (state) {
    case FinalState::kCompletedSuccessfully:
      return "COMPLETED_SUCCESSFULLY";
    case FinalState::kCompletedFailed:
      return "COMPLETED_FAILED";
    case FinalState::kCompletedWalltimeReached:
      return "COMPLETED_WALLTIME_REACHED";
    case FinalState::kCompletedKilled:
      return "COMPLETED_KILLED";
    case FinalState::kRejected:
      return "REJECTED";
  }
  return "REJECTED";
}

std::string to_string(FinalState state) { return state_name(state); }

const char* outcome_name(ResizeRecord::Outcome outcome) {
  switch (outcome) {
    case ResizeRecord::Outcome::kGranted:
      return "granted";
    case ResizeRecord::Outcome::kCancelled:
      return "cancelled";
    case ResizeRecord::Outcome::kPending:
      return "pending";
  }
  return "pending";
}

double JobRecord::stretch() const {
  const Time execution = execution_time();
  const Time turnaround = turnaround_time();
  if (execution > 0) return static_cast<double>(turnaround) / static_cast<double>(execution);
  return turnaround > 0 ? std::numeric_limits<double>::infinity() : 1.0;
}

JobRecord record_of(const workload::WorkloadJob& job) {
  JobRecord record;
  record.job = job.job;
  record.profile = job.profile;
  return record;
}

void MetricsAccumulator::add(const JobRecord& job) {
  ScheduleMetrics& m = totals_;
  m.first_submit =
      m.jobs++ == 0 ? job.job.submit_time : std::min(m.first_submit, job.job.submit_time);
  if (!job.executed()) {
    ++m.jobs_rejected;
    return;
  }
  ++m.jobs_executed;
  if (job.state == FinalState::kCompletedSuccessfully) ++m.jobs_succeeded;
  if (job.state == FinalState::kCompletedWalltimeReached) ++m.jobs_walltime_reached;
  if (job.state == FinalState::kCompletedFailed) ++m.jobs_failed;
  m.makespan = std::max(m.makespan, job.finish_time);
  const double run = to_seconds(job.execution_time());
  const double wait = to_seconds(job.waiting_time());
  const double turnaround = to_seconds(job.turnaround_time());
  m.busy_node_seconds += run * batfill::machine_count(job.machines);
  sum_wait_ += wait;
  sum_turnaround_ += turnaround;
  const double slowdown = run > 0          ? turnaround / run
                          : turnaround > 0 ? std::numeric_limits<double>::infinity()
                                           : 1.0;
  sum_slowdown_ += slowdown;
  sum_bounded_ += std::max(1.0, turnaround / std::max(run, 10.0));
  m.max_waiting_time = std::max(m.max_waiting_time, wait);
  m.max_turnaround_time = std::max(m.max_turnaround_time, turnaround);
  m.max_slowdown = std::max(m.max_slowdown, slowdown);
}

ScheduleMetrics MetricsAccumulator::metrics(int machine_count) const {
  ScheduleMetrics m = totals_;
  m.machine_count = machine_count;
  if (m.jobs == 0) return m;
  m.mean_waiting_time = sum_wait_ / m.jobs;
  m.mean_turnaround_time = sum_turnaround_ / m.jobs;
  m.mean_slowdown = sum_slowdown_ / m.jobs;
  if (m.jobs_executed > 0) {
    m.mean_waiting_time_executed = sum_wait_ / m.jobs_executed;
    m.mean_bounded_slowdown = sum_bounded_ / m.jobs_executed;
    const double span = to_seconds(m.makespan - m.first_submit);
    if (span > 0 && machine_count > 0) m.utilization = m.busy_node_seconds / (machine_count * span);
  }
  return m;
}

ScheduleMetrics compute_metrics(const std::vector<JobRecord>& jobs, int machine_count) {
  MetricsAccumulator accumulator;
  for (const JobRecord& job : jobs) accumulator.add(job);
  return accumulator.metrics(machine_count);
}

}  // namespace batfill::simulator
