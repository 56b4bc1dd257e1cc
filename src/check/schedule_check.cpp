#include "batfill/check/schedule_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "batfill/common/text.hpp"
#include "csv_records.hpp"

namespace batfill::check {
namespace {

std::string strip_workload(const std::string& id) {
  const std::size_t bang = id.rfind('!');
  return bang == std::string::npos ? id : id.substr(bang + 1);
}

struct ColumnIndexes {
  std::size_t id, submit, requested, state, start, execution, finish, waiting, alloc;
  explicit ColumnIndexes(const Columns& c)
      : id(c.index("job_id")),
        submit(c.index("submission_time")),
        requested(c.index("requested_number_of_resources")),
        state(c.index("final_state")),
        start(c.index("starting_time")),
        execution(c.index("execution_time")),
        finish(c.index("finish_time")),
        waiting(c.index("waiting_time")),
        alloc(c.index("allocated_resources")) {}
};

// The final states Batsim 4.2.1 and 5 write (their job_state_to_string); only REJECTED never ran.
constexpr std::array<const char*, 5> kFinalStates = {"COMPLETED_SUCCESSFULLY", "COMPLETED_FAILED",
                                                     "COMPLETED_WALLTIME_REACHED",
                                                     "COMPLETED_KILLED", "REJECTED"};

bool never_ran(const std::string& state) {
  const auto known = std::find(kFinalStates.begin(), kFinalStates.end(), state);
  if (known == kFinalStates.end()) {
    throw std::runtime_error("column 'final_state': " + quoted(state) +
                             " is not a final state of Batsim (" +
                             join({kFinalStates.begin(), kFinalStates.end()}) + ")");
  }
  return state == std::string_view("REJECTED");
}

MachineSet parse_allocation(const std::string& text) {
  try {
    return parse_machine_set(text);
  } catch (const std::exception& error) {
    throw std::runtime_error(std::string("column 'allocated_resources': ") + error.what());
  }
}

// Every state but REJECTED ran, on the machines it requested: an empty allocation is a
// violation there, not a sign that the job never ran. A rejected job has no start (batfill
// leaves the cells empty, Batsim writes -1 or 0) and must hold no machine.
ScheduledJob parse_row(const std::vector<std::string>& f, const ColumnIndexes& c) {
  ScheduledJob job;
  job.id = strip_workload(f.at(c.id));
  job.submit = parse_time(f.at(c.submit), "submission_time");
  job.requested = parse_count(f.at(c.requested), "requested_number_of_resources");
  job.executed = !never_ran(f.at(c.state));
  job.machines = parse_allocation(f.at(c.alloc));
  if (!job.executed) return job;
  job.start = parse_time(f.at(c.start), "starting_time");
  job.execution = parse_time(f.at(c.execution), "execution_time");
  job.finish = parse_time(f.at(c.finish), "finish_time");
  job.waiting = parse_time(f.at(c.waiting), "waiting_time");
  return job;
}

std::string at(const ScheduledJob& job) {
  return "job " + quoted(job.id) + " (line " + std::to_string(job.line) + ")";
}

void check_times(const ScheduledJob& job, std::vector<std::string>& out) {
  if (job.start < job.submit) {
    out.push_back(at(job) + " starts at " + format_seconds(job.start) +
                  " s, before its submission at " + format_seconds(job.submit) + " s");
  }
  if (off_by_more(job.finish, job.start + job.execution)) {
    out.push_back(at(job) + ": finish " + format_seconds(job.finish) + " s != start " +
                  format_seconds(job.start) + " + execution " + format_seconds(job.execution));
  }
  if (off_by_more(job.waiting, job.start - job.submit)) {
    out.push_back(at(job) + ": waiting " + format_seconds(job.waiting) + " s != start " +
                  format_seconds(job.start) + " - submission " + format_seconds(job.submit));
  }
}

// Whether machines lie outside 0..machine_count-1 (only the lower bound without a count).
bool outside_machine(const MachineSet& machines, const CheckOptions& options) {
  if (machines.empty()) return false;
  return boost::icl::first(machines) < 0 ||
         (options.machine_count && boost::icl::last(machines) >= *options.machine_count);
}

void check_allocation(const ScheduledJob& job, const CheckOptions& options,
                      std::vector<std::string>& out) {
  const int size = machine_count(job.machines);
  if (size != job.requested) {
    out.push_back(at(job) + " at " + format_seconds(job.start) + " s: allocation " +
                  quoted(to_string(job.machines)) + " has " + count_of(size, "machine") +
                  ", it requested " + std::to_string(job.requested));
  }
  if (outside_machine(job.machines, options)) {
    out.push_back(at(job) + " at " + format_seconds(job.start) + " s: allocation " +
                  quoted(to_string(job.machines)) + " lies outside machines 0-" +
                  std::to_string(options.machine_count.value_or(0) - 1));
  }
}

// A span of time during which machines are held: a job's run or a granted resize request's.
struct Occupancy {
  std::string who;
  Time start, end;
  const MachineSet* machines;
};

std::string resize_at(const ScheduledResize& resize) {
  return "resize request of job " + quoted(resize.job_id) + " (line " +
         std::to_string(resize.line) + " of the resize file)";
}

std::vector<Occupancy> occupancies(const std::vector<ScheduledJob>& jobs,
                                   const std::vector<ScheduledResize>& resizes) {
  std::vector<Occupancy> all;
  for (const ScheduledJob& job : jobs) {
    if (job.executed) all.push_back({at(job), job.start, job.finish, &job.machines});
  }
  for (const ScheduledResize& resize : resizes) {
    if (resize.granted) {
      all.push_back({resize_at(resize), resize.grant, resize.release, &resize.machines});
    }
  }
  return all;
}

// Per machine, the spans sorted by start: each must start at or after the latest end so far.
void check_overlaps(const std::vector<Occupancy>& spans, std::vector<std::string>& out) {
  std::map<int, std::vector<const Occupancy*>> by_machine;
  for (const Occupancy& span : spans) {
    for_each_id(*span.machines, [&](int id) { by_machine[id].push_back(&span); });
  }
  for (auto& [machine, list] : by_machine) {
    std::stable_sort(list.begin(), list.end(),
                     [](const Occupancy* a, const Occupancy* b) { return a->start < b->start; });
    const Occupancy* latest = nullptr;
    for (const Occupancy* span : list) {
      if (latest != nullptr && span->start < latest->end) {
        out.push_back("machine " + std::to_string(machine) + " runs " + latest->who + " and " +
                      span->who + " at once at " + format_seconds(span->start) +
                      " s (the first ends at " + format_seconds(latest->end) + " s)");
      }
      if (latest == nullptr || span->end > latest->end) latest = span;
    }
  }
}

// Batsim writes _pstate_changes.csv's times with "%g", six significant digits: a printed time
// may be off by half a unit of its sixth digit.
Time printed_margin(Time t) { return (t < 0 ? -t : t) / 200'000 + kTolerance; }

// No job runs on a machine while it switches or sleeps: per machine, the spans by start, and for
// each machine of each job the spans it overlaps by more than the times' printing.
void check_power(const std::vector<ScheduledJob>& jobs, const std::vector<PowerSpan>& spans,
                 std::vector<std::string>& out) {
  std::map<int, std::vector<const PowerSpan*>> by_machine;
  for (const PowerSpan& span : spans) by_machine[span.machine].push_back(&span);
  for (auto& [machine, list] : by_machine) {
    std::sort(list.begin(), list.end(),
              [](const PowerSpan* a, const PowerSpan* b) { return a->start < b->start; });
  }
  for (const ScheduledJob& job : jobs) {
    if (!job.executed) continue;
    for_each_id(job.machines, [&](int machine) {
      const auto found = by_machine.find(machine);
      if (found == by_machine.end()) return;
      for (const PowerSpan* span : found->second) {
        if (span->start >= job.finish) break;
        const Time from = span->start + printed_margin(span->start);
        const Time to = span->end == kNever ? kNever : span->end - printed_margin(span->end);
        if (job.start < to && from < std::max(job.finish, job.start + 1)) {
          out.push_back(at(job) + " runs on machine " + std::to_string(machine) + " from " +
                        format_seconds(job.start) + " s, while it is " + span->state + " (from " +
                        format_seconds(span->start) + " s, line " + std::to_string(span->line) +
                        " of the pstate changes)");
          return;
        }
      }
    });
  }
}

// A request is made while its job runs and ends with it; a grant comes between the two, with
// the nodes asked for, within the machine.
void check_resize(const ScheduledResize& resize, const ScheduledJob* job,
                  const CheckOptions& options, std::vector<std::string>& out) {
  if (job == nullptr || !job->executed) {
    out.push_back(resize_at(resize) + " names no executed job of the jobs file");
    return;
  }
  if (resize.request < job->start || resize.request >= job->finish) {
    out.push_back(resize_at(resize) + " is made at " + format_seconds(resize.request) +
                  " s, outside the job's run " + format_seconds(job->start) + "-" +
                  format_seconds(job->finish) + " s");
  }
  if (off_by_more(resize.release, job->finish)) {
    out.push_back(resize_at(resize) + " ends at " + format_seconds(resize.release) +
                  " s, not with its job at " + format_seconds(job->finish) + " s");
  }
  if (!resize.granted) return;
  if (resize.grant < resize.request || resize.grant > resize.release) {
    out.push_back(resize_at(resize) + " is granted at " + format_seconds(resize.grant) +
                  " s, outside " + format_seconds(resize.request) + "-" +
                  format_seconds(resize.release) + " s");
  }
  const int size = machine_count(resize.machines);
  const bool outside = outside_machine(resize.machines, options);
  if (size != resize.nodes || outside) {
    out.push_back(resize_at(resize) + " is granted " + quoted(to_string(resize.machines)) +
                  " for " + std::to_string(resize.nodes) + " nodes" +
                  (outside ? ", outside the machine" : ""));
  }
}

void check_resizes(const std::vector<ScheduledJob>& jobs, const CheckOptions& options,
                   std::vector<std::string>& out) {
  std::map<std::string, const ScheduledJob*> by_id;
  for (const ScheduledJob& job : jobs) by_id.emplace(job.id, &job);
  for (const ScheduledResize& resize : options.resizes) {
    const auto job = by_id.find(resize.job_id);
    check_resize(resize, job == by_id.end() ? nullptr : job->second, options, out);
  }
}

void check_presence(const std::vector<ScheduledJob>& jobs, const CheckOptions& options,
                    std::vector<std::string>& out) {
  std::map<std::string, const ScheduledJob*> seen;
  for (const ScheduledJob& job : jobs) {
    const auto [first, inserted] = seen.emplace(job.id, &job);
    if (!inserted)
      out.push_back(at(job) + " appears again (first at line " +
                    std::to_string(first->second->line) + ")");
    if (options.workload_ids && options.workload_ids->count(job.id) == 0) {
      out.push_back(at(job) + " is not in the workload");
    }
  }
  if (!options.workload_ids) return;
  for (const std::string& id : *options.workload_ids) {
    if (seen.count(id) == 0) out.push_back("workload job " + quoted(id) + " is missing");
  }
}

}  // namespace

std::vector<ScheduledJob> read_jobs_csv(const std::string& path, const std::string& text) {
  std::vector<ScheduledJob> jobs;
  read_csv(path, text, [&](const Columns& columns) -> RowReader {
    return [&jobs, indexes = ColumnIndexes(columns)](const std::vector<std::string>& fields,
                                                     int line) {
      ScheduledJob job = parse_row(fields, indexes);
      job.line = line;
      jobs.push_back(std::move(job));
    };
  });
  return jobs;
}

namespace {

ScheduledResize parse_resize(const std::vector<std::string>& f, const Columns& c) {
  ScheduledResize resize;
  resize.job_id = strip_workload(f.at(c.index("job_id")));
  resize.request = parse_time(f.at(c.index("request_time")), "request_time");
  resize.nodes = parse_count(f.at(c.index("nodes")), "nodes");
  resize.release = parse_time(f.at(c.index("release_time")), "release_time");
  const std::string& outcome = f.at(c.index("outcome"));
  if (outcome != "granted" && outcome != "cancelled") {
    throw std::runtime_error("column 'outcome': not granted or cancelled: " + quoted(outcome));
  }
  resize.granted = outcome == "granted";
  const std::string& grant = f.at(c.index("grant_time"));
  const std::string& machines = f.at(c.index("allocated_resources"));
  if (!resize.granted) {
    if (!grant.empty() || !machines.empty()) {
      throw std::runtime_error("a cancelled request has a grant time or machines");
    }
    return resize;
  }
  resize.grant = parse_time(grant, "grant_time");
  try {
    resize.machines = parse_machine_set(machines);
  } catch (const std::exception& error) {
    throw std::runtime_error(std::string("column 'allocated_resources': ") + error.what());
  }
  return resize;
}

}  // namespace

std::vector<ScheduledResize> read_resizes_csv(const std::string& path, const std::string& text) {
  std::vector<ScheduledResize> resizes;
  read_csv(path, text, [&](const Columns& columns) -> RowReader {
    for (const char* name : {"job_id", "request_time", "nodes", "grant_time", "allocated_resources",
                             "release_time", "outcome"}) {
      columns.index(name);
    }
    return [&resizes, columns](const std::vector<std::string>& fields, int line) {
      ScheduledResize resize = parse_resize(fields, columns);
      resize.line = line;
      resizes.push_back(std::move(resize));
    };
  });
  return resizes;
}

std::vector<std::string> check_schedule(const std::vector<ScheduledJob>& jobs,
                                        const CheckOptions& options) {
  std::vector<std::string> violations;
  for (const ScheduledJob& job : jobs) {
    if (!job.executed) {
      if (!job.machines.empty()) {
        violations.push_back(at(job) + " is REJECTED but holds machines " +
                             quoted(to_string(job.machines)));
      }
      continue;
    }
    check_times(job, violations);
    check_allocation(job, options, violations);
  }
  check_resizes(jobs, options, violations);
  check_overlaps(occupancies(jobs, options.resizes), violations);
  check_presence(jobs, options, violations);
  check_power(jobs, options.power_spans, violations);
  return violations;
}

}  // namespace batfill::check
