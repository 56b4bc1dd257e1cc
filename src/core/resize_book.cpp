#include "batfill/core/resize_book.hpp"

#include <algorithm>

namespace batfill {
namespace {

// What remains at `now` of a running job's run limit: the run time of its resize requests
// (docs/semantics.md#resize-requests-of-running-jobs). None for a job without a limit.
Time remaining_limit(const RunningJob& running, Time now) {
  if (!running.job.has_time_limit()) return kNoTimeLimit;
  return std::max<Time>(0, add_saturating(running.start, running.job.time_limit) - now);
}

// What remains at `now` of its planned runtime; the remaining limit once it outlived its plan,
// as nothing better is known then.
Time remaining_prediction(const RunningJob& running, Time now) {
  const Time end = planned_end(running.job, running.start);
  if (end == kNever) return kNoTimeLimit;
  return end > now ? end - now : remaining_limit(running, now);
}

}  // namespace

Job ResizeBook::make_request(const RunningJob& running, int nodes, Time now) const {
  Job request;
  request.id = resize_request_id(running.job.id, requests_of(running.job.id).size() + 1);
  request.submit_time = now;
  request.nodes = nodes;
  request.user = running.job.user;
  request.queue = running.job.queue;
  request.queue_index = running.job.queue_index;
  request.resize_request = true;
  request.time_limit = remaining_limit(running, now);
  request.prediction = remaining_prediction(running, now);
  return request;
}

void ResizeBook::add_pending(Job& stored, const RunningJob& running) {
  requests_[running.job.id].push_back(stored.id);
  job_of_.emplace(stored.id, running.job.id);
  pending_.push_back({&stored, &running});
}

void ResizeBook::leave_queue(const Job* request) {
  pending_.erase(std::find_if(pending_.begin(), pending_.end(),
                              [request](const Pending& p) { return p.request == request; }));
}

void ResizeBook::age_pending(Time now) {
  for (const Pending& pending : pending_) {
    pending.request->time_limit = remaining_limit(*pending.job, now);
    pending.request->prediction = remaining_prediction(*pending.job, now);
  }
}

const std::vector<JobId>& ResizeBook::requests_of(const JobId& job) const {
  static const std::vector<JobId> none;
  if (requests_.empty()) return none;
  const auto it = requests_.find(job);
  return it == requests_.end() ? none : it->second;
}

std::vector<JobId> ResizeBook::close(const JobId& job) {
  if (requests_.empty()) return {};
  const auto it = requests_.find(job);
  if (it == requests_.end()) return {};
  std::vector<JobId> requests = std::move(it->second);
  requests_.erase(it);
  for (const JobId& request : requests) job_of_.erase(request);
  return requests;
}

}  // namespace batfill
