#pragma once
// What happened to one job in a simulation: the rows of Batsim's _jobs.csv.

#include <optional>
#include <string>
#include <vector>

#include "batfill/common/machine_set.hpp"
#include "batfill/common/rejection.hpp"
#include "batfill/common/time.hpp"
#include "batfill/core/job.hpp"
#include "batfill/workload/workload.hpp"

namespace batfill::simulator {

// Batsim's final job states.
enum class FinalState {
  kCompletedSuccessfully,
  kCompletedFailed,
  kCompletedWalltimeReached,
  kCompletedKilled,  // by the decision process's KILL_JOB
  kRejected,
};

std::string to_string(FinalState state);
// The same name without a string: a row of _jobs.csv per job should not allocate one.
const char* state_name(FinalState state);
using batfill::to_string;  // keeps to_string(MachineSet) visible beside the overload above

// One resize request a job made (docs/semantics.md#resize-requests-of-running-jobs): a row of
// PREFIX_resizes.csv.
struct ResizeRecord {
  enum class Outcome { kPending, kGranted, kCancelled };
  std::string request_id;  // as messages name it: "w0!<id>#resizeK"
  Time request_time = 0;
  int nodes = 0;
  Outcome outcome = Outcome::kPending;
  Time grant_time = 0;    // granted requests only
  MachineSet machines;    // granted requests only
  Time release_time = 0;  // the job's end: granted machines given back, or the request cancelled

  Time waiting_time() const { return grant_time - request_time; }
};

const char* outcome_name(ResizeRecord::Outcome outcome);

struct JobRecord {
  std::string workload_name = "w0";
  Job job;  // as the workload submits it: the id without the "w0!" prefix, as Batsim writes it
  std::string profile;
  FinalState state = FinalState::kRejected;
  Time start_time = 0;                // executed jobs only
  Time finish_time = 0;               // executed jobs only
  MachineSet machines;                // executed jobs only
  Rejection rejection;                // rejected jobs only
  std::vector<ResizeRecord> resizes;  // the requests it made, in order (executed jobs only)
  int resizes_not_made = 0;           // requests that never fell due while it ran
  // With --energy, the joules its machines consumed while it ran (executed jobs only).
  std::optional<double> consumed_energy;
  std::string metadata;  // the decision process's SET_JOB_METADATA, "" if none

  bool executed() const { return state != FinalState::kRejected; }
  Time execution_time() const { return finish_time - start_time; }
  Time waiting_time() const { return start_time - job.submit_time; }
  Time turnaround_time() const { return finish_time - job.submit_time; }
  // Turnaround over execution, as _jobs.csv's stretch; a zero-length job keeps its exact length
  // 0 (Batsim itself would stretch it to 1e-5 s): infinite if it waited, else 1.
  double stretch() const;
};

// The record of a workload job before it is submitted: what it requests, nothing happened yet.
JobRecord record_of(const workload::WorkloadJob& job);

// Figures of a whole run, as in Batsim's _schedule.csv plus batfill's own utilization and
// mean bounded slowdown.
struct ScheduleMetrics {
  int machine_count = 0;
  int jobs = 0;
  int jobs_executed = 0;
  int jobs_rejected = 0;
  int jobs_succeeded = 0;
  int jobs_walltime_reached = 0;
  int jobs_failed = 0;
  Time first_submit = 0;
  Time makespan = 0;  // Batsim: the latest absolute finish time
  double busy_node_seconds = 0;
  double utilization = 0;  // busy node-seconds / (nodes x (last finish - first submit))
  // Batsim's means divide by all jobs, rejected included; batfill's bounded slowdown and the
  // mean wait of the summary divide by executed jobs only.
  double mean_waiting_time = 0, mean_turnaround_time = 0, mean_slowdown = 0;
  double max_waiting_time = 0, max_turnaround_time = 0, max_slowdown = 0;
  double mean_waiting_time_executed = 0;
  double mean_bounded_slowdown = 0;  // max(1, (wait + run) / max(run, 10 s)) over executed jobs
};

// The metrics of a run, accumulated job by job as jobs end, so a replay never keeps its records
// (docs/semantics.md#prefix_schedulecsv, docs/semantics.md#batfills-own-metrics). Sums are taken in
// the order jobs are added: the order jobs ended, as _jobs.csv lists them, so results do not depend
// on how a run is stored.
class MetricsAccumulator {
 public:
  void add(const JobRecord& job);
  ScheduleMetrics metrics(int machine_count) const;

 private:
  ScheduleMetrics totals_;  // counts, extremes and busy node-seconds; means in metrics()
  double sum_wait_ = 0, sum_turnaround_ = 0, sum_slowdown_ = 0, sum_bounded_ = 0;
};

// The metrics of finished records, as a MetricsAccumulator fed in their order.
ScheduleMetrics compute_metrics(const std::vector<JobRecord>& jobs, int machine_count);

}  // namespace batfill::simulator
