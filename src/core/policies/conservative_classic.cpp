// Classic conservative backfilling (Feitelson & Weil 1998; Mu'alem & Feitelson 2001; batsched's
// conservative_bf; notes §4 `conservative-classic`).
//
// An availability profile holds the running jobs until start + time_limit and ONE persistent
// reservation per waiting job. A new job gets the earliest slot where it fits for its whole
// limit around everything already planned (holes may be filled, a slot may end exactly where
// another begins). After completions, compression takes each waiting job out in queue order and
// puts it back at its earliest slot with all others in place: no reservation ever moves later.
// Rebuilding all reservations instead would be a different algorithm (it can push jobs later).
//
// One instant, in the core's order: completions free their remaining rectangles, compression,
// new jobs are planned in queue order, then the jobs whose slot is now start.
//
// The profile counts the whole machine; the real free nodes are checked again at start time.
// They differ only when Batsim reports a completion after the planned end (an overdue job,
// planned as ending now) or machines are unavailable: a due job that does not fit then stays
// due and starts as soon as it does, possibly over-committing the plan until compression.

#include <optional>
#include <algorithm>
#include <unordered_map>

#include "batfill/core/availability_profile.hpp"
#include "batfill/core/freed_capacity_log.hpp"
#include "batfill/core/policy.hpp"

namespace batfill {
namespace {

struct Reservation {
  Time start = 0;
  Time end = 0;
  FreedCapacityLog::Version placed_at = 0;  // log version when this slot was chosen
};

// Everything planned, from the current instant on. Copyable, so that a waiting-time estimate
// can play the next pass on a copy.
class Plan {
 public:
  Plan(int machine_count, Time now) : profile_(machine_count, now) {}

  void finish(const Job& job) {
    const auto it = running_.find(job.id);
    if (it == running_.end()) return;
    // Only the part from the last instant on is still in the profile. What lies after the
    // next instant is capacity freed for compression (an early completion).
    profile_.release(it->second.start, it->second.end, job.nodes);
    freed_until_ = std::max(freed_until_, it->second.end);
    running_.erase(it);
    compression_due_ = true;
  }

  // Brings the plan to `view.now`: compression after completions, then the new jobs.
  void catch_up(const SchedulingView& view) {
    profile_.advance_to(view.now);
    freed_.forget_before(view.now);
    if (freed_until_ > view.now) freed_.record(view.now);
    freed_until_ = view.now;
    if (compression_due_) {
      for (const Job* job : *view.queue) {
        const auto it = reserved_.find(job);
        if (it != reserved_.end()) compress(*job, it->second, view.now);
      }
      compression_due_ = false;
    }
    if (reserved_.size() < view.queue->size()) {
      for (const Job* job : *view.queue) {
        if (reserved_.count(job) == 0) reserved_.emplace(job, place(*job, view.now));
      }
    }
  }

  Time reserved_start(const Job& job) const { return reserved_.at(&job).start; }
  // How many waiting jobs have a slot at or before `now`.
  std::size_t due_count(Time now) const {
    return static_cast<std::size_t>(
        std::upper_bound(starts_.begin(), starts_.end(), now) - starts_.begin());
  }

  void start(const Job& job, Time now) {
    const auto it = reserved_.find(&job);
    Reservation slot = it->second;
    forget_start(slot.start);
    if (slot.start != now) {  // a past slot, of a job kept from starting: it runs from now
      profile_.release(slot.start, slot.end, job.nodes);
      slot.start = now;
      slot.end = add_saturating(now, occupancy(job));
      profile_.reserve(slot.start, slot.end, job.nodes);
    }
    running_.emplace(job.id, slot);
    reserved_.erase(it);
  }

 private:
  // Moves the job to its earliest slot with all others in place. Two cheap tests first tell
  // that it cannot move: no capacity was freed before its planned end since its slot was
  // chosen (the slot was the earliest fit then, and adding rectangles only takes nodes), or no
  // instant before its slot even has its nodes free.
  void compress(const Job& job, Reservation& slot, Time now) {
    if (slot.start == now) return;
    const Reservation old = slot;
    if (slot.start < now) {  // a past slot, of a job kept from starting: plan it from now
      take_out(job, old);
      slot = place(job, now);
      freed_.record(now);
      return;
    }
    if (freed_.earliest_since(slot.placed_at) >= slot.end) return;
    const Time start = profile_.earliest_move(now, slot.start, occupancy(job), job.nodes);
    if (start == slot.start) return;
    take_out(job, old);
    slot = put_at(job, start);
    const Time freed_from = std::max(old.start, slot.end);
    freed_.record(freed_from);
  }

  Reservation place(const Job& job, Time now) {
    return put_at(job, profile_.earliest_fit(now, occupancy(job), job.nodes));
  }
  Reservation put_at(const Job& job, Time start) {
    const Reservation slot{start, add_saturating(start, occupancy(job)), freed_.version()};
    profile_.reserve(slot.start, slot.end, job.nodes);
    starts_.insert(std::upper_bound(starts_.begin(), starts_.end(), slot.start), slot.start);
    return slot;
  }
  void take_out(const Job& job, const Reservation& slot) {
    profile_.release(slot.start, slot.end, job.nodes);
    forget_start(slot.start);
  }
  void forget_start(Time start) {
    starts_.erase(std::lower_bound(starts_.begin(), starts_.end(), start));
  }

  AvailabilityProfile profile_;
  // Waiting jobs by address: the Scheduler keeps each at one place until it starts, and
  // compression looks every one of them up at every completion (hashing ids cost more than the
  // searches). A job leaves this map when it starts, before the Scheduler frees its address.
  std::unordered_map<const Job*, Reservation> reserved_;
  // Their slots, sorted, to find the due ones fast. A vector: it holds one entry per waiting
  // job and changes at every move, where a tree would allocate.
  std::vector<Time> starts_;
  // Started jobs by id: the Scheduler reports completions with a copy of the job.
  std::unordered_map<JobId, Reservation> running_;
  FreedCapacityLog freed_;
  Time freed_until_ = 0;  // end of what completions since the last instant gave back
  bool compression_due_ = false;
};

class ConservativeClassic final : public Policy {
 public:
  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    if (!plan_) plan_.emplace(view.machine_count, view.now);
    plan_->catch_up(view);
    std::vector<const Job*> started;
    int free_nodes = view.free_nodes;
    std::size_t due = plan_->due_count(view.now);
    for (auto it = view.queue->begin(); due > 0 && free_nodes > 0 && it != view.queue->end(); ++it) {
      const Job* job = *it;
      if (plan_->reserved_start(*job) > view.now) continue;
      --due;
      if (job->nodes > free_nodes) continue;
      free_nodes -= job->nodes;
      plan_->start(*job, view.now);
      started.push_back(job);
    }
    return started;
  }

  void on_job_finished(const Job& job) override {
    if (plan_) plan_->finish(job);
  }

  // Exact: the slot the next pass would give the job.
  Time estimate_start(const Job& job, const SchedulingView& view) const override {
    Plan next = plan_ ? *plan_ : Plan(view.machine_count, view.now);
    next.catch_up(view);
    return next.reserved_start(job);
  }

 private:
  std::optional<Plan> plan_;  // created at the first pass, when the machine size is known
};

}  // namespace

std::unique_ptr<Policy> make_conservative_classic_policy() {
  return std::make_unique<ConservativeClassic>();
}

}  // namespace batfill
