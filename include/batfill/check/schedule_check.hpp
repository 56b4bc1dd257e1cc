#pragma once
// Validation of a Batsim _jobs.csv (batfill's, or a real Batsim's beside batsched or pybatsim):
// the schedule it describes must be one a machine could have run
// (docs/semantics.md#checking-a-schedule-batfill-check).

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "batfill/common/machine_set.hpp"
#include "batfill/common/time.hpp"

namespace batfill::check {

// One row of _jobs.csv, reduced to what the checks read. Times are microseconds; a job that
// never ran (REJECTED) has executed = false, no times beyond its submission, and machines only
// when its row (wrongly) names some.
struct ScheduledJob {
  std::string id;  // job_id without a "workload!" prefix
  int line = 0;    // 1-based line in the file, for messages
  Time submit = 0;
  int requested = 0;
  bool executed = false;
  Time start = 0, execution = 0, finish = 0, waiting = 0;
  MachineSet machines;
};

// Reads Batsim 4's _jobs.csv text (RFC 4180 quoting, columns found by name). Throws
// std::runtime_error naming `path`, the line and the column for anything unreadable.
std::vector<ScheduledJob> read_jobs_csv(const std::string& path, const std::string& text);

// One row of batfill's PREFIX_resizes.csv (docs/semantics.md#resize-requests-of-running-jobs): a
// resize request a job made, and the machines it was granted until the job's end.
struct ScheduledResize {
  std::string job_id;
  int line = 0;  // 1-based line in the resize file, for messages
  Time request = 0;
  int nodes = 0;
  bool granted = false;  // else cancelled at `release`, the job's end
  Time grant = 0;
  MachineSet machines;
  Time release = 0;
};

// Reads PREFIX_resizes.csv text; errors as read_jobs_csv's.
std::vector<ScheduledResize> read_resizes_csv(const std::string& path, const std::string& text);

// A span during which a machine cannot run a job: switching off, sleeping or switching on, read
// from a PREFIX_pstate_changes.csv of Batsim 4's `--energy` (or batfill's `simulate --energy`;
// docs/protocol.md#the-power-model-of-the-stand-in).
struct PowerSpan {
  int machine = 0;
  const char* state = "";  // "switching off", "sleeping", "switching on"
  int line = 0;            // 1-based line of the row that began it
  Time start = 0;
  Time end = kNever;  // kNever: asleep to the end
};

// Reads PREFIX_pstate_changes.csv text: a row of pstate -2 starts machines switching off, the
// next row of theirs with a pstate puts them to sleep until a row of -1 starts them switching on,
// which the next row with a pstate ends. Errors as read_jobs_csv's.
std::vector<PowerSpan> read_pstate_changes_csv(const std::string& path, const std::string& text);

struct CheckOptions {
  std::optional<int> machine_count;                   // allocations must lie in [0, machine_count)
  std::optional<std::set<std::string>> workload_ids;  // every id must appear exactly once
  // The run's resize requests: each made while its job ran, released at its end, and its
  // granted machines held by nobody else meanwhile.
  std::vector<ScheduledResize> resizes;
  // The machines' power spans: no job may run on a machine asleep or switching.
  std::vector<PowerSpan> power_spans;
};

// Every violation found, one line each, naming the jobs and the time; empty when valid.
std::vector<std::string> check_schedule(const std::vector<ScheduledJob>& jobs,
                                        const CheckOptions& options);

}  // namespace batfill::check
