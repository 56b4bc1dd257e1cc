#include "batfill/core/queue_rules.hpp"

namespace batfill {

bool ReservationClock::grant(const Job& job, const QueueSpec& queue, Time now) {
  if (!queue.slot_reserve) return false;
  if (queue.max_reserve_time == kNoTimeLimit) return true;
  const Time since = since_.emplace(job.id, now).first->second;
  if (now - since >= queue.max_reserve_time) return false;  // released: not seen, forgotten
  seen_.insert(job.id);
  return true;
}

void ReservationClock::end_pass() {
  for (auto it = since_.begin(); it != since_.end();) {
    it = seen_.count(it->first) != 0 ? std::next(it) : since_.erase(it);
  }
}

namespace {

// For views built without the Scheduler (tests of a policy alone): one queue, nothing running.
const QueueConfig& implicit_queues() {
  static const QueueConfig config = QueueConfig::implicit();
  return config;
}

const SlotUsage& nothing_running() {
  static const SlotUsage usage;
  return usage;
}

}  // namespace

QueueGate::QueueGate(const SchedulingView& view, ReservationClock* clock)
    : now_(view.now),
      config_(view.queues != nullptr ? view.queues : &implicit_queues()),
      running_(view.slots != nullptr ? view.slots : &nothing_running()),
      clock_(clock) {
  if (clock_ != nullptr) clock_->begin_pass();
}

QueueGate::~QueueGate() {
  if (clock_ != nullptr) clock_->end_pass();
}

// A pending resize request holds no reservation: LSF's slot reservation does not support them
// (docs/semantics.md#resize-requests-of-running-jobs). It is then a job of a queue without
// slot_reserve.
bool QueueGate::may_reserve(const Job& job) {
  if (job.resize_request) return false;
  const QueueSpec& queue = queue_of(job);
  if (clock_ == nullptr) return queue.slot_reserve;
  return clock_->grant(job, queue, now_);
}

}  // namespace batfill
