// Classic conservative backfilling (Feitelson & Weil 1998; Mu'alem & Feitelson 2001; batsched's
// conservative_bf; docs/semantics.md §2.5).
//
// An availability profile holds the running jobs until their planned end and ONE persistent
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
// planned as ending then) or machines are unavailable: a due job that does not fit then keeps
// its slot and starts as soon as it fits, at the late report, planned as if it had started at
// its slot. No reservation moves later for it (docs/semantics.md §2.5).

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>

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

  // A running job's prediction was corrected: it holds its nodes until `end` now, which may
  // overlap reservations. So the next catch_up plans every waiting job again, in queue order
  // (docs/semantics.md §2.9): the one case where a reservation may move later.
  void extend(const Job& job, Time end) {
    const auto it = running_.find(job.id);
    if (it == running_.end() || end <= it->second.end) return;
    profile_.reserve(it->second.end, end, job.nodes);
    it->second.end = end;
    replan_due_ = true;
  }

  // Brings the plan to `view.now`: compression after completions, then the new jobs. Afterwards
  // the plan's waiting jobs are the queue's, at the same positions.
  void catch_up(const SchedulingView& view) {
    first_reservations_.clear();
    profile_.advance_to(view.now);
    freed_.forget_before(view.now);
    if (freed_until_ > view.now) freed_.record(view.now);
    freed_until_ = view.now;
    bool new_jobs = follow(*view.queue);
    if (replan_due_) {
      for (Waiting& waiting : waiting_) {
        if (waiting.planned) take_out(*waiting.job, waiting.slot);
        waiting.planned = false;
      }
      new_jobs = !waiting_.empty();
      replan_due_ = false;
    }
    if (compression_due_) compress_all(view.now);
    if (new_jobs) {
      for (Waiting& waiting : waiting_) {
        if (!waiting.planned) {
          waiting.slot = place(*waiting.job, view.now);
          waiting.planned = true;
          note_first_reservation(waiting);
        }
      }
    }
  }

  // The slot of the job at `position` in the queue of the last catch_up.
  Time reserved_start(std::size_t position) const { return waiting_[position].slot.start; }
  Time reserved_start(const Job& job) const {
    for (const Waiting& waiting : waiting_) {
      if (waiting.job == &job) return waiting.slot.start;
    }
    throw std::logic_error("conservative-classic: job '" + job.id + "' has no reservation");
  }
  // How many waiting jobs have a slot at or before `now`.
  std::size_t due_count(Time now) const {
    return static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), now) -
                                    starts_.begin());
  }

  std::vector<FirstReservation> take_first_reservations() {
    return std::exchange(first_reservations_, {});
  }

  // Starts the job at `position` in the queue of the last catch_up. Its entry stays, empty,
  // until the next catch_up, so the positions of the others hold for the rest of the pass.
  void start(std::size_t position) {
    Waiting& waiting = waiting_[position];
    forget_start(waiting.slot.start);
    // A job kept from starting by a late report keeps its rectangle: it is planned as if it had
    // started at its slot, and is overdue by its delay at the end (docs/semantics.md §2.5).
    // Held from now instead, it would overlap the reservations after it, and a profile below
    // zero there would block every compression across it.
    running_.emplace(waiting.job->id, waiting.slot);
    waiting.job = nullptr;
  }

 private:
  struct Waiting {
    const Job* job = nullptr;  // null once started
    Reservation slot;
    bool planned = false;   // false until the job's first slot is chosen
    bool reserved = false;  // has had a known slot, whose first start was reported
  };

  // Reports the job's first known slot: the start it was promised.
  void note_first_reservation(Waiting& waiting) {
    if (waiting.reserved || waiting.slot.start == kNever) return;
    waiting.reserved = true;
    first_reservations_.push_back({waiting.job->id, waiting.slot.start});
  }

  // Makes waiting_ the queue's jobs in its order, started ones dropped, new ones unplanned;
  // true if there are new ones. The queue usually differs only by jobs appended at its end
  // (FCFS submissions), so a walk in step settles it; a reordered queue or one with jobs
  // inserted earlier finds the planned jobs by address.
  bool follow(const std::vector<const Job*>& queue) {
    std::size_t position = 0;  // of the queue, walked in step with waiting_
    bool in_step = true;
    for (const Waiting& waiting : waiting_) {
      if (waiting.job == nullptr) continue;
      if (position == queue.size() || waiting.job != queue[position]) {
        in_step = false;
        break;
      }
      ++position;
    }
    if (in_step) {  // in place: no allocation at the many instants without a reordering
      waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(),
                                    [](const Waiting& waiting) { return waiting.job == nullptr; }),
                     waiting_.end());
      for (std::size_t i = position; i < queue.size(); ++i)
        waiting_.push_back({queue[i], {}, false});
      return position < queue.size();
    }
    std::unordered_map<const Job*, const Waiting*> planned;
    for (const Waiting& waiting : waiting_) {
      if (waiting.job != nullptr) planned.emplace(waiting.job, &waiting);
    }
    std::vector<Waiting> followed;
    followed.reserve(queue.size());
    bool new_jobs = false;
    for (const Job* job : queue) {
      const auto it = planned.find(job);
      new_jobs = new_jobs || it == planned.end();
      followed.push_back(it == planned.end() ? Waiting{job, {}, false} : *it->second);
    }
    waiting_ = std::move(followed);
    return new_jobs;
  }

  // Compression, in queue order. It is skipped when nothing was freed since the last one began:
  // then no reservation can move. That is the case at a completion reported at or after its
  // planned end (its nodes were already free in the plan, and the jobs waiting for them are
  // due), unless the last compression moved jobs: their old slots may suit the jobs it had
  // already passed, as at any completion (docs/semantics.md §2.5).
  void compress_all(Time now) {
    compression_due_ = false;
    if (freed_.version() == compressed_from_) return;
    compressed_from_ = freed_.version();
    for (Waiting& waiting : waiting_) {
      if (!waiting.planned) continue;
      compress(*waiting.job, waiting.slot, now);
      note_first_reservation(waiting);
    }
  }

  // Moves the job to its earliest slot with all others in place. Two cheap tests first tell
  // that it cannot move: no capacity was freed before its planned end since its slot was
  // chosen (the slot was the earliest fit then, and adding rectangles only takes nodes), or no
  // instant before its slot even has its nodes free.
  void compress(const Job& job, Reservation& slot, Time now) {
    // A due job keeps its slot, even one in the past: it waits for nodes held by a job
    // reported after its planned end, and starts at that report (docs/semantics.md §2.5).
    // Planning it again from now could push it behind later reservations.
    if (slot.start <= now) return;
    const Reservation old = slot;
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
  // The waiting jobs and their slots, in the queue's order: compression visits every one of
  // them at every completion, so they are walked in place rather than looked up (a hash map by
  // address cost as much as the searches). A job's entry is emptied when it starts, before the
  // Scheduler frees its address.
  std::vector<Waiting> waiting_;
  // Their slots, sorted, to find the due ones fast. A vector: it holds one entry per waiting
  // job and changes at every move, where a tree would allocate.
  std::vector<Time> starts_;
  // Started jobs by id: the Scheduler reports completions with a copy of the job.
  std::unordered_map<JobId, Reservation> running_;
  FreedCapacityLog freed_;
  std::vector<FirstReservation> first_reservations_;  // made by the last catch_up
  Time freed_until_ = 0;  // end of what completions since the last instant gave back
  bool compression_due_ = false;
  FreedCapacityLog::Version compressed_from_ = 0;  // the log's version when the last one began
  bool replan_due_ = false;                        // a running job was extended by a correction
};

class ConservativeClassic final : public Policy {
 public:
  // The profile plans every job for its whole limit; queues (docs/semantics.md §2.10) are not
  // implemented here.
  bool needs_time_limits() const override { return true; }
  bool supports_queues() const override { return false; }

  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    if (!plan_) plan_.emplace(view.machine_count, view.now);
    plan_->catch_up(view);
    std::vector<const Job*> started;
    int free_nodes = view.free_nodes;
    std::size_t due = plan_->due_count(view.now);
    const std::vector<const Job*>& queue = *view.queue;
    for (std::size_t position = 0; due > 0 && free_nodes > 0 && position < queue.size();
         ++position) {
      const Job* job = queue[position];
      if (plan_->reserved_start(position) > view.now) continue;
      --due;
      if (job->nodes > free_nodes) continue;
      free_nodes -= job->nodes;
      plan_->start(position);
      started.push_back(job);
    }
    return started;
  }

  std::vector<FirstReservation> take_first_reservations() override {
    return plan_ ? plan_->take_first_reservations() : std::vector<FirstReservation>{};
  }

  void on_job_finished(const Job& job) override {
    if (plan_) plan_->finish(job);
  }

  void on_prediction_extended(const Job& job, Time start, Time) override {
    if (plan_) plan_->extend(job, planned_end(job, start));
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
