#pragma once
// The queue rules one scheduling pass applies (docs/semantics.md#queues---queues), shared by the
// policies: slot limits as jobs start during the pass, which jobs may hold a reservation
// (slot_reserve, max_reserve_time) and which may start in another job's reserved slots.

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "batfill/core/policy.hpp"
#include "batfill/core/slot_limit.hpp"

namespace batfill {

// When each job's reservation was taken, for max_reserve_time. Kept by a policy between passes:
// a job that is not granted a reservation in a pass (it started, or another job is now the
// head) forgets its own, so a released reservation restarts its clock at the next pass.
class ReservationClock {
 public:
  void begin_pass() { seen_.clear(); }
  // Whether `job` holds a reservation at `now`: its queue reserves and it has not held one for
  // max_reserve_time. A reservation that reaches it is released for this pass.
  bool grant(const Job& job, const QueueSpec& queue, Time now);
  // Forgets the reservations not granted since begin_pass().
  void end_pass();

 private:
  std::unordered_map<JobId, Time> since_;
  std::unordered_set<JobId> seen_;
};

class QueueGate {
 public:
  // `clock` may be null: reservations then never expire (waiting-time estimates).
  QueueGate(const SchedulingView& view, ReservationClock* clock);
  ~QueueGate();
  QueueGate(const QueueGate&) = delete;
  QueueGate& operator=(const QueueGate&) = delete;

  const QueueSpec& queue_of(const Job& job) const {
    return config_->queues[static_cast<std::size_t>(job.queue_index)];
  }
  // Whether `job` may start now without exceeding its queue's or its user's slot limit.
  bool within_limits(const Job& job) const { return running_->fits(job, *config_, &started_); }
  // Whether `job`, blocked, holds a reservation in this pass.
  bool may_reserve(const Job& job);
  // Whether `job` may start in slots reserved for another job: its queue backfills and it has
  // a run limit, so that it is known to end before the reservation (LSF cannot backfill a job
  // without one).
  bool may_backfill(const Job& job) const { return queue_of(job).backfill && job.has_time_limit(); }
  void start(const Job& job) {
    if (queue_of(job).limits_slots()) started_.add(job);
  }

 private:
  Time now_;
  const QueueConfig* config_;
  // The running jobs' nodes, read in place, not copied: a pass runs at every instant, and the
  // counts hold every (queue, user) ever seen.
  const SlotUsage* running_;
  SlotUsage started_;  // the pass's starts
  ReservationClock* clock_;
};

}  // namespace batfill
