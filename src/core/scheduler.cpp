#include "batfill/core/scheduler.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace batfill {

Scheduler::Scheduler(int machine_count, std::unique_ptr<Policy> policy, SchedulerOptions options)
    : policy_(std::move(policy)), options_(options), pool_(machine_count) {
  if (machine_count <= 0) {
    throw std::invalid_argument("a machine needs at least one node, got " +
                                std::to_string(machine_count));
  }
}

void Scheduler::complete(const JobId& id) {
  const auto it = running_.find(id);
  if (it == running_.end()) {
    throw std::invalid_argument("completion of job '" + id + "', which is not running");
  }
  pool_.release(it->second.machines);
  releases_.erase(it->second.release);
  const Job job = std::move(it->second.job);
  running_.erase(it);
  policy_->on_job_finished(job);
}

void Scheduler::submit(const Job& job) {
  if (waiting_.count(job.id) != 0 || running_.count(job.id) != 0) {
    throw std::invalid_argument("job '" + job.id + "' submitted twice");
  }
  // Jobs that can never run are rejected at submission so they never block the queue (docs/semantics.md §2.7).
  if (job.nodes <= 0) {
    return reject(job, "requests " + std::to_string(job.nodes) + " nodes");
  }
  if (job.nodes > pool_.size()) {
    return reject(job, "requests " + std::to_string(job.nodes) + " nodes but the machine has " +
                           std::to_string(pool_.size()));
  }
  if (!job.has_time_limit() && policy_->needs_time_limits()) {
    return reject(job, "has no time limit (walltime), which backfilling needs");
  }
  const Job& stored = waiting_.emplace(job.id, job).first->second;
  const Time now = job.submit_time;
  queue_.insert(std::upper_bound(queue_.begin(), queue_.end(), &stored,
                                 [&](const Job* a, const Job* b) {
                                   return queued_before(options_.order, *a, *b, now);
                                 }),
                &stored);
}

void Scheduler::reject(const Job& job, std::string reason) {
  Decision decision;
  decision.kind = Decision::Kind::kReject;
  decision.job_id = job.id;
  decision.reason = "job '" + job.id + "' " + std::move(reason);
  pending_.push_back(std::move(decision));
}

std::vector<Decision> Scheduler::schedule(Time now) {
  std::vector<Decision> decisions = std::move(pending_);
  pending_.clear();
  if (queue_.empty()) return decisions;
  if (depends_on_time(options_.order)) {
    std::stable_sort(queue_.begin(), queue_.end(), [&](const Job* a, const Job* b) {
      return queued_before(options_.order, *a, *b, now);
    });
  }

  const std::vector<const Job*> starting = policy_->select_jobs_to_start(view_at(now, queue_));
  if (starting.empty()) return decisions;

  // A sorted vector, not a hash set: a pass starts few jobs, and this runs at every instant.
  std::vector<const Job*> started = starting;
  std::sort(started.begin(), started.end(), std::less<const Job*>());
  for (const Job* job : starting) {
    const auto [first, last] = std::equal_range(started.begin(), started.end(), job, std::less<const Job*>());
    if (last - first != 1 || waiting_.count(job->id) == 0) {
      throw std::logic_error("policy started job '" + job->id + "' twice or while not waiting");
    }
  }
  remove_from_queue(started);
  decisions.reserve(decisions.size() + starting.size());
  for (const Job* job : starting) start(*job, now, decisions);
  return decisions;
}

// Started jobs sit near the front of a long queue: compact only up to the last of them.
// Compares addresses only; the jobs are still in waiting_.
void Scheduler::remove_from_queue(const std::vector<const Job*>& started) {
  std::size_t to_remove = started.size();
  auto kept = queue_.begin();
  auto it = queue_.begin();
  for (; it != queue_.end() && to_remove > 0; ++it) {
    if (std::binary_search(started.begin(), started.end(), *it, std::less<const Job*>())) {
      --to_remove;
    } else {
      *kept++ = *it;
    }
  }
  queue_.erase(kept, it);
}

// Moves a waiting job (already out of the queue) to the running jobs, with its machines.
void Scheduler::start(const Job& waiting, Time now, std::vector<Decision>& decisions) {
  const auto it = waiting_.find(waiting.id);
  RunningJob running;
  running.job = std::move(it->second);  // `waiting` refers to it: not used below
  waiting_.erase(it);
  const Job& job = running.job;
  running.start = now;
  running.machines = pool_.allocate(job.nodes, options_.allocation);
  running.release = releases_.emplace(planned_end(job, now), job.nodes);
  Decision decision;
  decision.job_id = job.id;
  decision.machines = running.machines;
  decisions.push_back(std::move(decision));
  const JobId id = job.id;
  running_.emplace(id, std::move(running));
}

Time Scheduler::estimate_start(const Job& job, Time now) const {
  if (job.nodes <= 0 || job.nodes > pool_.size()) return kNever;
  if (!job.has_time_limit() && policy_->needs_time_limits()) return kNever;
  // The queue as it would be with `job` submitted now.
  auto ahead = [&](const Job* a, const Job* b) { return queued_before(options_.order, *a, *b, now); };
  std::vector<const Job*> queue = queue_;
  if (depends_on_time(options_.order)) std::stable_sort(queue.begin(), queue.end(), ahead);
  queue.insert(std::upper_bound(queue.begin(), queue.end(), &job, ahead), &job);
  return policy_->estimate_start(job, view_at(now, queue));
}

SchedulingView Scheduler::view_at(Time now, const std::vector<const Job*>& queue) const {
  SchedulingView view;
  view.now = now;
  view.machine_count = pool_.size();
  view.free_nodes = pool_.free_count();
  view.queue = &queue;
  view.releases = &releases_;
  return view;
}

const MachineSet& Scheduler::machines_of(const JobId& id) const {
  const auto it = running_.find(id);
  if (it == running_.end()) throw std::invalid_argument("job '" + id + "' is not running");
  return it->second.machines;
}

}  // namespace batfill
