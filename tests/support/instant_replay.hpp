#pragma once
// A driver for the scheduling core alone: replays jobs with known runtimes, instant by instant,
// with no SimGrid and no protocol. Each job runs min(runtime, time_limit); at each timestamp all
// completions are applied first, then all submissions, then one pass
// (docs/semantics.md#one-instant). batfill itself never uses it: the tests check the embedded
// simulator against it (kept deliberately separate so that each checks the other), and bench_core
// times the core with it.

#include <algorithm>
#include <initializer_list>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "batfill/core/policy_registry.hpp"
#include "batfill/core/scheduler.hpp"

namespace batfill::testing {

// One instant in the spec's order: completions, then submissions, then one pass.
inline std::vector<Decision> run_instant(Scheduler& scheduler, Time now,
                                         const std::vector<JobId>& completed,
                                         const std::vector<Job>& submitted) {
  for (const JobId& id : completed) scheduler.complete(id, now);
  for (const Job& job : submitted) scheduler.submit(job);
  return scheduler.schedule(now);
}

// A resize request (docs/semantics.md#resize-requests-of-running-jobs): `after` the job started, it
// asks for `nodes` more.
struct TraceResize {
  Time after = 0;
  int nodes = 0;
};

struct TraceJob {
  Job job;
  Time runtime = 0;  // what the job really runs if not stopped at its limit
  std::vector<TraceResize> resizes;
};

// A job of a hand-made trace; `time_limit` kNoTimeLimit for none.
inline TraceJob trace_job(const JobId& id, Time submit, int nodes, Time time_limit, Time runtime,
                          const std::string& queue = "", int user = -1) {
  TraceJob t;
  t.job.id = id;
  t.job.submit_time = submit;
  t.job.nodes = nodes;
  t.job.time_limit = time_limit;
  t.job.queue = queue;
  t.job.user = user;
  t.runtime = runtime;
  return t;
}

struct ReplayResult {
  std::map<JobId, Time> start;  // executed jobs
  std::map<JobId, MachineSet> machines;
  std::map<JobId, Rejection> rejected;
  // Each job's first reservation, for policies that make them (conservative-classic).
  std::map<JobId, Time> first_reservation;
  Time makespan = 0;  // last finish
  // Resize requests by id: when each was made, granted (with its machines) or withdrawn at its
  // job's end. A request whose job ended first is never made.
  std::map<JobId, Time> requested;
  std::map<JobId, Time> granted;
  std::map<JobId, MachineSet> granted_machines;
  std::map<JobId, Time> cancelled;
  // Idle power-off (docs/semantics.md#idle-power-off-power_off_after): each switch decided, in
  // order. The replay plays the platform: a switch is reported after the time the settings give.
  struct Switch {
    Time time;
    MachineSet machines;
    PowerTarget target;
  };
  std::vector<Switch> switches;
};

// Watches a replay from inside (property tests). With an observer the replay drives the
// Scheduler step by step: complete() each job, submit() each job in queue order, schedule().
struct ReplayObserver {
  virtual ~ReplayObserver() = default;
  // Just before `job` is submitted at `now`; the jobs of one instant come in queue order.
  virtual void before_submit(const Scheduler& /*scheduler*/, const Job& /*job*/, Time /*now*/) {}
  // After the pass at `now`: what completed at `now` and what the pass decided.
  virtual void after_pass(const Scheduler& /*scheduler*/, Time /*now*/,
                          const std::vector<JobId>& /*completed*/,
                          const std::vector<Decision>& /*decisions*/) {}
};

// Jobs from rows (submit, nodes, time_limit[, runtime]) in seconds; ids "0", "1", ... in order.
// Without a runtime a job runs its whole limit.
inline std::vector<TraceJob> trace_in_seconds(std::initializer_list<std::vector<int>> rows) {
  std::vector<TraceJob> trace;
  for (const std::vector<int>& row : rows) {
    TraceJob t;
    t.job.id = std::to_string(trace.size());
    t.job.submit_time = from_seconds(row.at(0));
    t.job.nodes = row.at(1);
    t.job.time_limit = from_seconds(row.at(2));
    t.runtime = from_seconds(row.size() > 3 ? row.at(3) : row.at(2));
    trace.push_back(t);
  }
  return trace;
}

inline ReplayResult replay(const std::vector<TraceJob>& trace, int machine_count,
                           std::unique_ptr<Policy> policy, SchedulerOptions options = {},
                           ReplayObserver* observer = nullptr) {
  Scheduler scheduler(machine_count, std::move(policy), options);
  std::map<Time, std::vector<Job>> submissions;
  std::map<JobId, Time> run_for;  // min(runtime, time_limit): stopped at the limit
  for (const TraceJob& t : trace) {
    submissions[t.job.submit_time].push_back(t.job);
    run_for[t.job.id] = t.job.has_time_limit() ? std::min(t.runtime, t.job.time_limit) : t.runtime;
  }
  std::map<JobId, const TraceJob*> by_id;
  for (const TraceJob& t : trace) by_id[t.job.id] = &t;
  std::multimap<Time, JobId> completions;
  // Resize requests due, with their job and nodes, in the order the jobs started.
  std::multimap<Time, std::pair<JobId, int>> requests;
  ReplayResult result;
  // An instant's requests come after its completions and submissions, in the order due. Only
  // requests due before their job's end are queued as events.
  auto make_requests = [&](Time now) {
    while (!requests.empty() && requests.begin()->first == now) {
      const auto [job_id, nodes] = requests.begin()->second;
      requests.erase(requests.begin());
      result.requested[scheduler.request_resize(job_id, nodes, now)] = now;
    }
  };
  auto withdrawn_at = [&](Time now, const std::vector<JobId>& completed) {
    for (const auto& [request, at] : result.requested) {
      if (result.granted.count(request) != 0 || result.cancelled.count(request) != 0) continue;
      const JobId owner = request.substr(0, request.rfind("#resize"));
      if (std::find(completed.begin(), completed.end(), owner) != completed.end()) {
        result.cancelled[request] = now;
      }
    }
  };
  // Power reports due, and the wake-ups the scheduler asked for (idle power-off).
  std::multimap<Time, std::pair<MachineSet, PowerTarget>> reports;
  std::set<Time> wake_ups;
  bool first = true;
  auto report_power = [&](Time now) {
    while (!reports.empty() && reports.begin()->first == now) {
      const auto& [machines, target] = reports.begin()->second;
      scheduler.power_reached(machines, target, now);
      reports.erase(reports.begin());
    }
    wake_ups.erase(now);
  };
  while (!submissions.empty() || !completions.empty() || !requests.empty() || !reports.empty() ||
         !wake_ups.empty() || first) {
    Time now = kNever;
    if (!submissions.empty()) now = submissions.begin()->first;
    if (!completions.empty()) now = std::min(now, completions.begin()->first);
    if (!requests.empty()) now = std::min(now, requests.begin()->first);
    if (!reports.empty()) now = std::min(now, reports.begin()->first);
    if (!wake_ups.empty()) now = std::min(now, *wake_ups.begin());
    // With idle power-off the first instant is time 0, as Batsim's SIMULATION_BEGINS.
    if (first && options.power.enabled()) now = std::min<Time>(now, 0);
    first = false;
    if (now == kNever) break;
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
    std::vector<Decision> decisions;
    if (observer == nullptr) {
      for (const JobId& id : completed) scheduler.complete(id, now);
      for (const Job& job : submitted) scheduler.submit(job);
      make_requests(now);
      report_power(now);
      decisions = scheduler.schedule(now);
    } else {
      for (const JobId& id : completed) scheduler.complete(id, now);
      std::sort(submitted.begin(), submitted.end(), [&](const Job& a, const Job& b) {
        return queued_before(options.order, a, b, now);
      });
      for (const Job& job : submitted) {
        observer->before_submit(scheduler, job, now);
        scheduler.submit(job);
      }
      make_requests(now);
      report_power(now);
      decisions = scheduler.schedule(now);
      observer->after_pass(scheduler, now, completed, decisions);
    }
    for (const FirstReservation& first : scheduler.take_first_reservations()) {
      result.first_reservation.emplace(first.job_id, first.start);
    }
    withdrawn_at(now, completed);
    const Time wake_up = scheduler.next_power_time(now);
    if (wake_up != kNever) wake_ups.insert(wake_up);
    for (const Decision& d : decisions) {
      if (d.kind == Decision::Kind::kSwitchPower) {
        result.switches.push_back({now, d.machines, d.power});
        const bool on = d.power == PowerTarget::kCompute;
        reports.emplace(now + (on ? options.power.switch_on : options.power.switch_off),
                        std::pair{d.machines, d.power});
        continue;
      }
      if (d.kind == Decision::Kind::kReject) {
        result.rejected[d.job_id] = d.reason;
        continue;
      }
      if (d.kind == Decision::Kind::kGrantResize) {
        result.granted[d.job_id] = now;
        result.granted_machines[d.job_id] = d.machines;
        continue;
      }
      result.start[d.job_id] = now;
      result.machines[d.job_id] = d.machines;
      const Time run = run_for.at(d.job_id);
      completions.emplace(now + run, d.job_id);
      result.makespan = std::max(result.makespan, now + run);
      for (const TraceResize& resize : by_id.at(d.job_id)->resizes) {
        if (resize.after < run)
          requests.emplace(now + resize.after, std::pair{d.job_id, resize.nodes});
      }
    }
  }
  if (scheduler.waiting_count() != 0) throw std::logic_error("replay ended with jobs waiting");
  return result;
}

inline ReplayResult replay(const std::vector<TraceJob>& trace, int machine_count,
                           const std::string& policy, SchedulerOptions options = {},
                           ReplayObserver* observer = nullptr) {
  return replay(trace, machine_count, make_policy(policy), options, observer);
}

// Each job's start in whole seconds, in trace order: the form of the tables in docs/semantics.md
// docs/semantics.md#reference-cases-and-the-dr_evt-result.
inline std::vector<long> start_seconds(const std::vector<TraceJob>& trace,
                                       const std::string& policy, int machine_count) {
  const ReplayResult result = replay(trace, machine_count, policy);
  std::vector<long> seconds;
  for (const TraceJob& t : trace) {
    seconds.push_back(static_cast<long>(result.start.at(t.job.id) / kMicrosecondsPerSecond));
  }
  return seconds;
}

}  // namespace batfill::testing
