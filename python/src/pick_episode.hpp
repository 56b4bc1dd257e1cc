#pragma once
// The simulation behind batfill.gym.SchedulingEnv (docs/python.md, "The scheduling
// environment"): an episode is a window of a trace, an agent picks one waiting job at a time, and
// the picked job starts as soon as it fits. The rules are RLScheduler's (HPCSimPickJobs.py), as
// docs/python.md states them, so that its baselines give its numbers: times are whole seconds,
// jobs run their actual runtime, and the queue and the running jobs are lists that its stable
// sorts reorder.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "batfill/core/job.hpp"
#include "batfill/core/queue_order.hpp"

namespace batfill::python {

// A trace as the environment reads it (batfill/gym.py builds it): one entry per job, in trace
// order, times in seconds.
struct PickTrace {
  std::vector<std::int64_t> submit;
  std::vector<std::int64_t> runtime;
  std::vector<std::int64_t> requested_time;  // the walltime; the runtime when the trace has none
  std::vector<std::int64_t> processors;
  std::vector<int> nodes;  // the machine's nodes the job takes
  // Per job, the observation's fixed features (requested time, processors, memory, user, group,
  // executable), already normalised.
  std::vector<double> static_features;
  int machine_nodes = 0;
  std::int64_t machine_processors = 0;
  std::vector<Job> core_jobs;  // the jobs as batfill's queue orders see them

  std::size_t size() const { return submit.size(); }
};

enum class PickMetric { kBoundedSlowdown, kWait, kTurnaround, kUtilization, kSlowdown };

struct PickOptions {
  std::size_t window = 256;  // jobs per episode
  std::size_t slots = 128;   // waiting jobs the agent sees and may pick
  bool backfill = false;
  PickMetric metric = PickMetric::kBoundedSlowdown;
};

inline constexpr std::size_t kPickFeatures = 8;

class PickEpisode {
 public:
  PickEpisode(std::shared_ptr<const PickTrace> trace, PickOptions options);

  // A new episode on jobs [start, start + window) of the trace.
  void reset(std::size_t start);
  // Starts the trace's job `job`, which must be waiting; true when the episode is over.
  bool step(std::size_t job);
  // Sorts the waiting jobs in `order` (stably, as RLScheduler's baselines sort its queue before
  // each pick: it decides which of the jobs submitted together backfilling tries first); the
  // first of them.
  std::size_t sort_queue(QueueOrder order);

  // The waiting jobs the agent sees, slot by slot.
  std::vector<std::size_t> visible() const;
  // slots x kPickFeatures values; the jobs shown are the slots step_slot() takes.
  void observe(float* out);
  // Starts the job in `slot` of the last observation; std::out_of_range for an empty slot.
  bool step_slot(std::size_t slot);
  std::size_t shown() const { return shown_.size(); }
  // The sum over the window's started jobs of their metric, as RLScheduler totals it.
  double total() const;

  bool done() const { return done_; }
  std::int64_t now() const { return now_; }
  std::size_t start() const { return start_; }
  const PickOptions& options() const { return options_; }
  const PickTrace& trace() const { return *trace_; }
  // Start time of each job of the window, -1 while not started.
  const std::vector<std::int64_t>& start_times() const { return started_; }
  bool is_waiting(std::size_t job) const;

 private:
  bool fits(std::size_t job) const;
  std::int64_t& start_of(std::size_t job) { return started_[job - start_]; }
  std::int64_t start_of(std::size_t job) const { return started_[job - start_]; }
  void start_job(std::size_t job);
  void arrive();
  void release_first();
  void sort_running_by_end();
  void advance_one_event();
  void wait_until_fits(std::size_t job);
  void backfill_until_fits(std::size_t job);
  bool fill_queue();
  double score(std::size_t job) const;

  std::shared_ptr<const PickTrace> trace_;
  PickOptions options_;
  std::size_t start_ = 0;
  std::size_t end_ = 0;
  std::size_t next_ = 0;  // the next job to arrive
  std::int64_t now_ = 0;
  int free_nodes_ = 0;
  bool done_ = false;
  std::vector<std::size_t> queue_;    // in list order
  std::vector<std::size_t> running_;  // in list order
  std::vector<std::int64_t> started_;
  std::vector<double> scores_;      // in start order
  std::vector<std::size_t> shown_;  // the last observation's jobs, slot by slot
};

}  // namespace batfill::python
