#pragma once
// The interface every scheduling policy implements: a snapshot of one instant in, the jobs to
// start now out. Policies count nodes only; the Scheduler picks the concrete machines.

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "batfill/common/time.hpp"
#include "batfill/core/job.hpp"
#include "batfill/core/queue_config.hpp"

namespace batfill {

// Planned ends of the running jobs: start + planned runtime -> nodes released then (kNever for a
// job without a limit). The planned runtime is the job's prediction, by default its walltime
// (docs/semantics.md#predictions-correctors-and-backfill-order).
using PlannedReleases = std::multimap<Time, int>;

// The order in which the candidates behind the blocked queue head are tried for backfilling
// (docs/semantics.md#predictions-correctors-and-backfill-order): queue order, or shortest predicted
// runtime first (SJBF; a stable sort, ties keep queue order).
enum class BackfillOrder { kQueue, kShortestFirst };

// "queue" or "sjbf"; throws std::invalid_argument listing them otherwise.
BackfillOrder parse_backfill_order(const std::string& name);
std::string to_string(BackfillOrder order);

// The wait queue as a policy reads it: the waiting jobs in queue order, contiguous. A view,
// not a vector, so that the Scheduler can drop started jobs from the front of its queue without
// moving the jobs behind them.
class QueueView {
 public:
  QueueView() = default;
  QueueView(const Job* const* first, const Job* const* last) : first_(first), last_(last) {}
  explicit QueueView(const std::vector<const Job*>& jobs)
      : QueueView(jobs.data(), jobs.data() + jobs.size()) {}

  const Job* const* begin() const { return first_; }
  const Job* const* end() const { return last_; }
  std::size_t size() const { return static_cast<std::size_t>(last_ - first_); }
  bool empty() const { return first_ == last_; }
  const Job* operator[](std::size_t position) const { return first_[position]; }

 private:
  const Job* const* first_ = nullptr;
  const Job* const* last_ = nullptr;
};

// What a policy sees of the system at one instant, after that instant's completions and
// submissions have been applied.
struct SchedulingView {
  Time now = 0;
  int machine_count = 0;  // the whole machine, including busy and unavailable nodes
  int free_nodes = 0;     // usable now: not running a job and not unavailable
  QueueView queue;        // waiting jobs, in queue order
  const PlannedReleases* releases = nullptr;
  BackfillOrder backfill_order = BackfillOrder::kQueue;
  // The queues (docs/semantics.md#queues---queues), never null: one implicit queue without
  // --queues.
  const QueueConfig* queues = nullptr;
  const class SlotUsage* slots = nullptr;  // nodes held by the running jobs per queue and user
};

// The start a policy that keeps reservations gave a waiting job the first time it planned it
// (docs/semantics.md#conservative-classic--feitelson--weil-1998): the job starts no later, but for
// late reports.
struct FirstReservation {
  JobId job_id;
  Time start = 0;
};

// The events the next pass would be told first were a job submitted now, for an estimate: the
// queue sorted again (as Policy::on_queue_reordered; empty when no job moves), then the job
// queued at `position`.
struct PendingEvents {
  std::vector<std::size_t> previous_positions;
  std::size_t position = 0;
};

class Policy {
 public:
  virtual ~Policy() = default;

  // Whether the policy plans with predicted runtimes; one that does not plans with walltimes
  // whatever the predictor (the spec's CONSERVATIVE,
  // docs/semantics.md#predictions-correctors-and-backfill-order).
  virtual bool plans_with_predictions() const { return true; }
  // Whether the policy follows view.backfill_order; the Scheduler refuses "sjbf" otherwise.
  virtual bool orders_candidates() const { return false; }

  // The events: the Scheduler reports each change of the wait queue and of the running jobs as
  // it makes it, so that a policy keeping state between passes follows them instead of
  // comparing the queue with an earlier one. Positions count the waiting jobs in queue order,
  // as view.queue does.

  // `job` joined the wait queue at `position`; the jobs from there on moved back by one.
  virtual void on_job_queued(const Job& /*job*/, std::size_t /*position*/) {}
  // A time-dependent queue order sorted the wait queue again before a pass: the job now at
  // position i was at previous_positions[i]. Not reported when no job moved.
  virtual void on_queue_reordered(const std::vector<std::size_t>& /*previous_positions*/) {}
  // A job the last pass selected left the wait queue; `position` is its place in that pass's
  // view.queue. A pass's starts are reported right after it, in start order.
  virtual void on_job_started(const Job& /*job*/, std::size_t /*position*/) {}
  // A waiting job left the wait queue without starting: a resize request withdrawn when its job
  // ended (docs/semantics.md#resize-requests-of-running-jobs). `position`: its place in the queue;
  // the jobs behind it moved forward by one.
  virtual void on_job_removed(const Job& /*job*/, std::size_t /*position*/) {}
  // A running job ended (normally, at its limit, failed or killed), or a granted resize request
  // ended with its job; the Scheduler already freed its nodes.
  virtual void on_job_completed(const Job& /*job*/) {}
  // A running job's planned end moved later (a correction); the Scheduler already moved it in
  // view.releases.
  virtual void on_prediction_extended(const Job& /*job*/, Time /*start*/, Time /*old_end*/) {}

  // Why the policy refuses `job` at its submission, or "" to admit it: a policy that rejects
  // jobs of its own (batsched's rejecter, docs/usage.md#batscheds-variants). A refused job is
  // rejected at once, as one that can never run.
  virtual std::string refusal(const Job& /*job*/) const { return {}; }

  // The jobs of view.queue to start now, in the order they start. Their nodes must fit in
  // view.free_nodes taken together.
  virtual std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) = 0;

  // Idle power-off (docs/semantics.md#idle-power-off-power_off_after): the nodes the waiting jobs
  // may need from the machines that are not awake, after a pass. Every waiting job's nodes by
  // default; a policy that can start only some of them says which.
  virtual long long power_demand(QueueView queue) const {
    long long nodes = 0;
    for (const Job* job : queue) nodes += job->nodes;
    return nodes;
  }

  // The first reservations made by the last select_jobs_to_start, for the log, each once:
  // taking them leaves none. Empty for policies without persistent reservations.
  virtual std::vector<FirstReservation> take_first_reservations() { return {}; }

  // When `job`, not yet submitted, would start if it were submitted now: `pending` says what
  // the next pass would be told first, and view.queue is the queue after it. Policies that
  // keep reservations answer exactly; the default plans the queue conservatively
  // (start_estimate.hpp). kNever: it would never start.
  virtual Time estimate_start(const Job& job, const PendingEvents& pending,
                              const SchedulingView& view) const;
};

}  // namespace batfill
