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
#include <unordered_map>

#include "batfill/core/availability_profile.hpp"
#include "batfill/core/policy.hpp"

namespace batfill {
namespace {

struct Rectangle {
  Time start = 0;
  Time end = 0;
  int nodes = 0;
};

// Everything planned, from the current instant on. Copyable, so that a waiting-time estimate
// can play the next pass on a copy.
class Plan {
 public:
  Plan(int machine_count, Time now) : profile_(machine_count, now) {}

  void finish(const Job& job) {
    const auto it = running_.find(job.id);
    if (it == running_.end()) return;
    take_out(it->second);  // only the part from the last instant on is still in the profile
    running_.erase(it);
    compression_due_ = true;
  }

  // Brings the plan to `view.now`: compression after completions, then the new jobs.
  void catch_up(const SchedulingView& view) {
    profile_.advance_to(view.now);
    if (compression_due_) {
      for (const Job* job : *view.queue) {
        const auto it = reserved_.find(job->id);
        if (it == reserved_.end()) continue;  // new, planned below
        take_out(it->second);
        // Its own slot still fits, so the search stops there: it never moves later. (A slot
        // already in the past, of a job kept from starting, gets the earliest slot from now.)
        const Time old_start = it->second.start;
        it->second = put_in(*job, view.now, old_start >= view.now ? old_start : kNever);
      }
      compression_due_ = false;
    }
    for (const Job* job : *view.queue) {
      if (reserved_.count(job->id) == 0) reserved_.emplace(job->id, put_in(*job, view.now, kNever));
    }
  }

  Time reserved_start(const Job& job) const { return reserved_.at(job.id).start; }

  void start(const Job& job, Time now) {
    const auto it = reserved_.find(job.id);
    Rectangle running = it->second;
    if (running.start != now) {  // a slot already past, of a job kept from starting
      take_out(running);
      running = put_at(job, now);
    }
    running_.emplace(job.id, running);
    reserved_.erase(it);
  }

 private:
  Rectangle put_in(const Job& job, Time now, Time known_fit) {
    return put_at(job, profile_.earliest_fit(now, occupancy(job), job.nodes, known_fit));
  }
  Rectangle put_at(const Job& job, Time start) {
    const Rectangle r{start, add_saturating(start, occupancy(job)), job.nodes};
    profile_.reserve(r.start, r.end, r.nodes);
    return r;
  }
  void take_out(const Rectangle& r) { profile_.release(r.start, r.end, r.nodes); }

  AvailabilityProfile profile_;
  std::unordered_map<JobId, Rectangle> reserved_;  // waiting jobs
  std::unordered_map<JobId, Rectangle> running_;   // started by this policy
  bool compression_due_ = false;
};

class ConservativeClassic final : public Policy {
 public:
  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    if (!plan_) plan_.emplace(view.machine_count, view.now);
    plan_->catch_up(view);
    std::vector<const Job*> started;
    int free_nodes = view.free_nodes;
    for (const Job* job : *view.queue) {
      if (free_nodes == 0) break;
      if (plan_->reserved_start(*job) > view.now || job->nodes > free_nodes) continue;
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
