#pragma once
// Test-only driver for the scheduling core: replays jobs with known runtimes, instant by
// instant, with no SimGrid and no protocol. Each job runs min(runtime, time_limit); at each
// timestamp all completions are applied first, then all submissions, then one pass (notes §1).
// Kept deliberately separate from the embedded simulator so that each checks the other.

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "batfill/core/policy_registry.hpp"
#include "batfill/core/scheduler.hpp"

namespace batfill::testing {

struct TraceJob {
  Job job;
  Time runtime = 0;  // what the job really runs if not stopped at its limit
};

struct ReplayResult {
  std::map<JobId, Time> start;  // executed jobs
  std::map<JobId, MachineSet> machines;
  std::map<JobId, std::string> rejected;
  Time makespan = 0;  // last finish
};

inline ReplayResult replay(const std::vector<TraceJob>& trace, int machine_count,
                           const std::string& policy, SchedulerOptions options = {}) {
  Scheduler scheduler(machine_count, make_policy(policy), options);
  std::map<Time, std::vector<Job>> submissions;
  std::map<JobId, Time> run_for;  // min(runtime, time_limit): stopped at the limit
  for (const TraceJob& t : trace) {
    submissions[t.job.submit_time].push_back(t.job);
    run_for[t.job.id] = t.job.has_time_limit() ? std::min(t.runtime, t.job.time_limit) : t.runtime;
  }
  std::multimap<Time, JobId> completions;
  ReplayResult result;
  while (!submissions.empty() || !completions.empty()) {
    Time now = kNever;
    if (!submissions.empty()) now = submissions.begin()->first;
    if (!completions.empty()) now = std::min(now, completions.begin()->first);
    std::vector<JobId> completed;
    while (!completions.empty() && completions.begin()->first == now) {
      completed.push_back(completions.begin()->second);
      completions.erase(completions.begin());
    }
    std::vector<Job> submitted;
    if (!submissions.empty() && submissions.begin()->first == now) {
      submitted = submissions.begin()->second;
      submissions.erase(submissions.begin());
    }
    for (const Decision& d : scheduler.on_instant(now, completed, submitted)) {
      if (d.kind == Decision::Kind::kReject) {
        result.rejected[d.job_id] = d.reason;
        continue;
      }
      result.start[d.job_id] = now;
      result.machines[d.job_id] = d.machines;
      const Time run = run_for.at(d.job_id);
      completions.emplace(now + run, d.job_id);
      result.makespan = std::max(result.makespan, now + run);
    }
  }
  if (scheduler.waiting_count() != 0) throw std::logic_error("replay ended with jobs waiting");
  return result;
}

}  // namespace batfill::testing
