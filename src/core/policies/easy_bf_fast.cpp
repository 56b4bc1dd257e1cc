// batsched's `easy_bf_fast` (docs/usage.md#easy_bf_fast): EASY backfilling with one
// reservation for the priority job (the queue head), computed once and kept. Its rule, which
// differs from easy-classic's:
// - the priority job's start is planned when it becomes the priority job, from the planned ends
//   of the jobs then running, and never planned again while it waits;
// - a job backfills when it fits in the free machines now and its planned end is no later than
//   that start (no extra-node rule);
// - the waiting jobs are looked at only when a job ended; a job submitted now is looked at once,
//   after them, and starts if it fits and does not delay the priority job, even ahead of older
//   waiting jobs that were not looked at again.
// batsched's variant ignores machines that become available again (or wake up); here they are a
// reason to look at the waiting jobs, as a job's end is, so that no job waits for ever.

#include <algorithm>

#include "batfill/core/policy.hpp"

namespace batfill {
namespace {

class EasyBfFast final : public Policy {
 public:
  void on_job_queued(const Job& job, std::size_t /*position*/) override {
    arrived_.push_back(&job);
  }
  void on_job_removed(const Job& job, std::size_t /*position*/) override {
    if (&job == priority_) priority_ = nullptr;
    arrived_.erase(std::remove(arrived_.begin(), arrived_.end(), &job), arrived_.end());
  }
  void on_job_completed(const Job& /*job*/) override { job_ended_ = true; }

  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    Pass pass{view, view.free_nodes, {}};
    const bool freed = job_ended_ || view.free_nodes > free_left_;
    if (freed && priority_ != nullptr) after_job_end(pass);
    for (const Job* job : arrived_) look_at_arrival(pass, *job);
    job_ended_ = false;
    arrived_.clear();
    free_left_ = pass.free_nodes;
    return pass.started;
  }

 private:
  struct Pass {
    const SchedulingView& view;
    int free_nodes;
    std::vector<const Job*> started;
  };

  bool arrived_now(const Job* job) const {
    return std::find(arrived_.begin(), arrived_.end(), job) != arrived_.end();
  }
  // Waiting before this pass, not the priority job and not started yet by it.
  bool pending(const Pass& pass, const Job* job) const {
    return job != priority_ && !arrived_now(job) &&
           std::find(pass.started.begin(), pass.started.end(), job) == pass.started.end();
  }

  static void start(Pass& pass, const Job& job) {
    pass.free_nodes -= job.nodes;
    pass.started.push_back(&job);
  }

  // The priority job starts if it fits, then the waiting jobs in queue order until one does not
  // fit, which becomes the priority job; then the rest backfill before its planned start.
  void after_job_end(Pass& pass) {
    if (priority_->nodes <= pass.free_nodes) {
      start(pass, *priority_);
      priority_ = nullptr;
      for (const Job* job : pass.view.queue) {
        if (!pending(pass, job)) continue;
        if (job->nodes > pass.free_nodes) {
          become_priority(pass, *job);
          break;
        }
        start(pass, *job);
      }
    }
    if (priority_ == nullptr) return;
    for (const Job* job : pass.view.queue) {
      if (pass.free_nodes == 0) return;
      if (pending(pass, job) && backfills(pass, *job)) start(pass, *job);
    }
  }

  void look_at_arrival(Pass& pass, const Job& job) {
    if (job.nodes <= pass.free_nodes) {
      if (priority_ == nullptr || backfills(pass, job)) start(pass, job);
    } else if (priority_ == nullptr) {
      become_priority(pass, job);
    }
  }

  bool backfills(const Pass& pass, const Job& job) const {
    return job.nodes <= pass.free_nodes && planned_end(job, pass.view.now) <= priority_start_;
  }

  // The job's start is planned at the first planned end of a running job (those this pass
  // started included) by which enough machines are free for it; kNever if none.
  void become_priority(const Pass& pass, const Job& job) {
    priority_ = &job;
    PlannedReleases releases = *pass.view.releases;
    for (const Job* started : pass.started) {
      releases.emplace(planned_end(*started, pass.view.now), started->nodes);
    }
    int free_nodes = pass.free_nodes;
    priority_start_ = kNever;
    for (const auto& [end, nodes] : releases) {
      free_nodes += nodes;
      if (free_nodes >= job.nodes) {
        priority_start_ = end;
        return;
      }
    }
  }

  const Job* priority_ = nullptr;
  Time priority_start_ = kNever;
  bool job_ended_ = false;
  int free_left_ = 0;                // free machines after the last pass
  std::vector<const Job*> arrived_;  // queued since the last pass, in submission order
};

}  // namespace

std::unique_ptr<Policy> make_easy_bf_fast_policy() { return std::make_unique<EasyBfFast>(); }

}  // namespace batfill
