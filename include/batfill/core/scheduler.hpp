#pragma once
// The scheduling core: wait queue, running jobs and machines, driven one instant at a time.
//
// Plain C++ with no I/O: the embedded simulator and the Batsim protocol layer feed it events
// and turn its decisions into EXECUTE_JOB / REJECT_JOB.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "batfill/common/id_set.hpp"
#include "batfill/common/rejection.hpp"
#include "batfill/core/correction_clock.hpp"
#include "batfill/core/job.hpp"
#include "batfill/core/machine_pool.hpp"
#include "batfill/core/policy.hpp"
#include "batfill/core/power_states.hpp"
#include "batfill/core/prediction.hpp"
#include "batfill/core/queue_order.hpp"
#include "batfill/core/resize_book.hpp"
#include "batfill/core/running_job.hpp"
#include "batfill/core/slot_limit.hpp"

namespace batfill {

struct SchedulerOptions {
  QueueOrder order = QueueOrder::kFcfs;
  AllocationRule allocation = AllocationRule::kLowest;
  // Predictions (docs/semantics.md#predictions-correctors-and-backfill-order): the default plans
  // with walltimes, as the spec does.
  std::string predictor = "requested";
  PredictorOptions predictor_options;
  std::string corrector;  // "" = none: a job that outlives its prediction stays overdue
  BackfillOrder backfill_order = BackfillOrder::kQueue;
  // The queues (docs/semantics.md#queues---queues); null: one implicit queue that reserves and
  // backfills.
  std::shared_ptr<const QueueConfig> queues;
  // Idle power-off (docs/semantics.md#idle-power-off-power_off_after); off by default.
  PowerOptions power;
};

struct Decision {
  // kGrantResize: a resize request (docs/semantics.md#resize-requests-of-running-jobs) granted;
  // job_id is the request's. kSwitchPower: idle machines switched to `power`
  // (docs/semantics.md#idle-power-off-power_off_after); job_id is empty.
  enum class Kind { kExecute, kReject, kGrantResize, kSwitchPower };
  Kind kind = Kind::kExecute;
  JobId job_id;
  MachineSet machines;  // kExecute, kGrantResize: exactly job.nodes machines
  Rejection reason;     // kReject: why the job can never run, naming the job
  PowerTarget power = PowerTarget::kSleep;  // kSwitchPower
};

// Throws std::invalid_argument for options a Scheduler with `policy` refuses: an unknown
// predictor or corrector, options the predictor does not take, a backfill order the policy
// cannot follow, a queue configuration that is not valid. Checks settings without making a
// Scheduler.
void check_options(const Policy& policy, const SchedulerOptions& options);

class Scheduler {
 public:
  // Throws std::invalid_argument for a machine count < 1 and as check_options.
  Scheduler(int machine_count, std::unique_ptr<Policy> policy, SchedulerOptions options = {});

  // One instant, in the spec's order (docs/semantics.md#one-instant): every complete(), then every
  // submit(), then one schedule(). complete() throws std::invalid_argument for a job that is
  // not running; submit() throws for an id already known. A job that can never run is rejected
  // at once (the decision is returned by the next schedule()) and never blocks the queue.
  void complete(const JobId& id, Time now);
  void submit(Job job);
  std::vector<Decision> schedule(Time now);
  // The same pass, its decisions replacing the content of `decisions`: a caller that passes the
  // same vector at every instant keeps its buffer instead of allocating one per pass.
  void schedule(Time now, std::vector<Decision>& decisions);
  // The first reservations the last schedule() made (conservative-classic's promises), once.
  std::vector<FirstReservation> take_first_reservations() {
    return policy_->take_first_reservations();
  }

  // Resize requests (docs/semantics.md#resize-requests-of-running-jobs), a model of the embedded
  // simulator only. The running job `id` asks at `now` for `nodes` more machines: the request joins
  // the wait queue as a job of the job's queue and user submitted now, planned for what remains of
  // the job's run limit and prediction, and never holds a reservation. Once granted (a kGrantResize
  // decision) its machines are the job's until the job ends. Returns the request's id,
  // "ID#resizeK" for the job's K-th request. Throws std::invalid_argument if the job is not
  // running or `nodes` is not positive.
  JobId request_resize(const JobId& id, int nodes, Time now);
  // Takes a pending resize request out of the wait queue; it is never granted. complete()
  // withdraws the job's pending requests itself. Throws if `request` is no pending request.
  void withdraw(const JobId& request);
  // Whether `request` is a resize request still waiting.
  bool is_pending_resize(const JobId& request) const;

  // Corrections (docs/semantics.md#predictions-correctors-and-backfill-order). The next time a
  // running job outlives its prediction (kNever without a corrector or such a job); the caller asks
  // to be woken up then.
  Time next_correction_time() const { return corrections_.next(); }
  // Gives every running job that outlived its prediction by `now` a new one from the corrector,
  // again while the new one has expired too. A job whose known runtime ends it by the time its
  // prediction expires is not corrected: its completion is due. Returns how many corrections.
  int correct_predictions(Time now);

  // The current and initial predictions and the correction count of a running job (throws if
  // not running).
  Time prediction_of(const JobId& id) const;
  Time initial_prediction_of(const JobId& id) const;
  // When a running job is planned to end once the corrections due by `now` are made (what the
  // next correct_predictions(now) would give it); kNever for a job not running.
  Time planned_end_of(const JobId& id, Time now) const;
  int corrections_of(const JobId& id) const;
  // How many jobs started before a running job (throws if not running): pyss handles the
  // completions of one instant in this order (docs/semantics.md#event-batching---batching).
  std::uint64_t start_sequence_of(const JobId& id) const;
  const QueueConfig& queues() const { return queues_; }

  // When `job` (not yet submitted) would start if submitted now: Batsim's
  // estimate_waiting_time QUERY. Returns kNever for a job that can never run.
  Time estimate_start(const Job& job, Time now) const;

  // Idle power-off: the platform reports that `machines` reached the state a kSwitchPower
  // decision asked for; applied with the instant's other events, before schedule(). Throws
  // std::invalid_argument for a machine that was not switching there.
  void power_reached(const MachineSet& machines, PowerTarget target, Time now);
  // The next time after `now` at which an idle machine may be switched off; the caller asks to be
  // woken up then. kNever without idle power-off.
  Time next_power_time(Time now) const;
  // Machines switching on or off: their reports will come.
  int machines_switching() const { return power_ ? power_->switching() : 0; }

  void mark_unavailable(const MachineSet& machines) { pool_.mark_unavailable(machines); }
  void mark_available(const MachineSet& machines) { pool_.mark_available(machines); }

  int machine_count() const { return pool_.size(); }
  int free_nodes() const { return pool_.free_count(); }
  std::size_t waiting_count() const { return queue_.size() - queue_front_; }
  std::size_t running_count() const { return running_.size(); }  // granted resizes included
  // Machines of a running job; throws std::invalid_argument if it is not running.
  const MachineSet& machines_of(const JobId& id) const;
  // Where job `id` is: never submitted, waiting, running, or ended (completed or rejected; a
  // rejected job has ended from its submission on). Resize requests are not jobs.
  JobStage stage(const JobId& id) const;
  // Whether job `id` was rejected.
  bool was_rejected(const JobId& id) const { return rejected_.contains(id); }

 private:
  // The admission rules, the same for submit() and estimate_start(): the job's queue, or why
  // the job can never run.
  struct Admission {
    int queue_index = -1;
    std::string refusal;  // empty: admitted
    bool admitted() const { return refusal.empty(); }
  };
  Admission admission(const Job& job) const;
  void reject(const Job& job, std::string reason);
  // Puts a job of waiting_ in the wait queue at its place at `now` and tells the policy.
  void enqueue(Job& stored, Time now);
  // Frees the machines of a running entry, with its slots and planned release.
  void give_back(const RunningJob& running, Time now);
  // Ends the job's granted resizes and withdraws its pending ones, at the job's end.
  void end_resizes(const JobId& job, Time now);
  // The policy's pass, then the power switches after it.
  void pass(Time now, std::vector<Decision>& decisions);
  void switch_power(Time now, std::vector<Decision>& decisions);
  // Moves a running entry's planned release to its current prediction and tells the policy;
  // `old_end` is the end planned before.
  void replan(RunningJob& running, Time old_end);
  // Plans the job's granted resizes to end with the job again, after a correction.
  void follow_correction(const RunningJob& running);
  // What the policy sees at `now` with `queue` as the wait queue.
  SchedulingView view_at(Time now, QueueView queue) const;
  QueueView waiting_queue() const;
  // The first waiting job's place in queue_ (the slots before it held started jobs).
  std::vector<const Job*>::iterator waiting_begin();
  std::vector<std::size_t> reordering(QueueView queue, Time now) const;
  // `started` is sorted by address.
  std::vector<std::size_t> remove_from_queue(const std::vector<const Job*>& started);
  void start(const Job& waiting, std::size_t position, Time now, std::vector<Decision>& decisions);
  Time predict(const Job& job);
  // Hands the predictor the completions before `now`, by end time, then start order.
  void learn_completions_before(Time now);
  const RunningJob& running_job(const JobId& id) const;
  const QueueSpec& queue_of(const Job& job) const;  // its configured queue
  // Whether `a` comes before `b` in the wait queue at `now`: queue priority first, then --order
  // (docs/semantics.md#queues---queues).
  bool precedes(const Job& a, const Job& b, Time now) const;

  std::unique_ptr<Policy> policy_;
  SchedulerOptions options_;
  std::unique_ptr<Predictor> predictor_;
  CorrectionClock corrections_;
  // Completions not yet learned from: a job submitted in the same instant does not see them, as
  // in pyss, where submissions come before terminations, and still sees them running
  // (docs/semantics.md#predictions-correctors-and-backfill-order).
  struct Completed {
    Time end;
    std::uint64_t start_sequence;
    Job job;
    Time runtime;
  };
  std::vector<Completed> to_learn_;
  std::uint64_t started_count_ = 0;
  MachinePool pool_;
  // Owns the queued jobs; queue_ points into it.
  std::unordered_map<JobId, Job, JobIdHash> waiting_;
  // In queue order from queue_front_: the slots before it held jobs that started, and are
  // dropped once they are half of the vector, so that a start at the front costs no move of
  // the jobs behind it.
  std::vector<const Job*> queue_;
  std::size_t queue_front_ = 0;
  // Nodes: pointers to entries stay valid, and the correction clock and resize book hold some.
  std::unordered_map<JobId, RunningJob, JobIdHash> running_;
  PlannedReleases releases_;
  QueueConfig queues_;
  SlotUsage slots_;
  std::vector<Decision> pending_;  // rejections made since the last schedule()
  ResizeBook resizes_;
  // Jobs that ended, as compact id sets: a replay of millions of jobs must still refuse a job
  // submitted or completed twice (a real Batsim's bug, or a protocol mix-up) without keeping
  // every id as a string. rejected_ only tells the outcome apart.
  IdSet ended_;  // completed or rejected
  IdSet rejected_;
  std::unique_ptr<PowerStates> power_;  // null without idle power-off
};

}  // namespace batfill
