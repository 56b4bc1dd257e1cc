#pragma once
// Resize requests (docs/semantics.md#resize-requests-of-running-jobs), a model of the embedded
// simulator only: which job each request belongs to, and which requests still wait. Part of the
// Scheduler, which keeps the requests themselves in its wait queue or among its running jobs and
// tells its policy.
//
// Invariants: every request in the book belongs to one running job that is no request itself,
// and is listed among that job's requests in request order, the K-th named "ID#resizeK"
// (withdrawn ones stay listed, so that no name comes back); the pending requests are the listed
// ones that wait in the Scheduler's queue; a job's requests leave the book when the job ends.

#include <unordered_map>
#include <vector>

#include "batfill/core/job.hpp"
#include "batfill/core/running_job.hpp"

namespace batfill {

class ResizeBook {
 public:
  // Whether no running job has a request.
  bool empty() const { return job_of_.empty(); }
  bool has_pending() const { return !pending_.empty(); }

  // The job's next request, for `nodes` more machines at `now`: a job of the job's queue and
  // user submitted now, planned for what remains of the job's run limit and prediction. The
  // caller stores it in the wait queue, then books it with add_pending().
  Job make_request(const RunningJob& running, int nodes, Time now) const;
  // Books a request of make_request(running, ...), now waiting at `stored`. `running` must not
  // move while the request waits (the Scheduler's table keeps its entries in place).
  void add_pending(Job& stored, const RunningJob& running);
  // A pending request leaves the wait queue, granted or withdrawn.
  void leave_queue(const Job* request);
  // Gives each pending request what remains at `now` of its job's run limit and prediction.
  void age_pending(Time now);

  // The job of a request in the book.
  const JobId& job_of(const JobId& request) const { return job_of_.at(request); }
  // A job's requests in request order; empty for a job that made none.
  const std::vector<JobId>& requests_of(const JobId& job) const;
  // Takes the job's requests out of the book at its end, in request order.
  std::vector<JobId> close(const JobId& job);

 private:
  struct Pending {
    Job* request;
    const RunningJob* job;
  };
  std::unordered_map<JobId, std::vector<JobId>, JobIdHash> requests_;  // by job
  std::unordered_map<JobId, JobId, JobIdHash> job_of_;                 // by request
  // Their remaining times change with the clock.
  std::vector<Pending> pending_;
};

}  // namespace batfill
