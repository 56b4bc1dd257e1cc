#pragma once
// Workloads as the embedded simulator replays them: SWF traces (plain or gzip), Batsim JSON
// workloads and DR_EVT CSV traces, all read into one shape.
//
// Nothing is dropped: a record that cannot run becomes a job with a rejection, which the
// simulator applies so that it still shows up in the outputs.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "batfill/common/rejection.hpp"
#include "batfill/common/time.hpp"
#include "batfill/core/job.hpp"

namespace batfill::workload {

// How a job executes in the embedded simulator (Batsim's profile types that batfill supports).
struct Profile {
  enum class Type { kDelay, kParallelHomogeneous, kParallel };
  std::string name;
  Type type = Type::kDelay;
  Time delay = 0;                    // kDelay: the job's real runtime (before the walltime cut)
  double cpu = 0, com = 0;           // kParallelHomogeneous: flops per host, bytes per host pair
  std::vector<double> cpu_per_host;  // kParallel: n flops
  std::vector<double> com_matrix;    // kParallel: n*n bytes, row = sender
  int return_code = 0;               // Batsim's "ret": non-zero ends the job COMPLETED_FAILED
};

// A resize request (docs/semantics.md#resize-requests-of-running-jobs): `after` the job started, it
// asks for `nodes` more.
struct ResizeRequest {
  Time after = 0;
  int nodes = 0;
};

struct WorkloadJob {
  // id = job name without the workload prefix ("17"); time_limit = kNoTimeLimit if none.
  // Ids are unique within a workload: a repeated id is renamed "<id>#2", "<id>#3"... and the
  // job is marked invalid, so the simulator can key its tables by id.
  Job job;
  std::string profile;  // key into Workload::profiles (an invalid job may name a missing one)
  // Non-empty: the record is malformed or unrunnable. Its position is "FILE:LINE" (JSON:
  // "FILE:LINE: jobs[i]"), its reason the record's problems joined by "; "; it names no job.
  // The simulator rejects the job with it.
  Rejection rejection;
  // Batsim JSON only: the job object's user fields verbatim as JSON object text ("" if none).
  std::string extra_json;
  // Its resize requests, in input order: Batsim JSON's job field "resize", or --resize.
  std::vector<ResizeRequest> resizes;

  bool is_valid() const { return rejection.empty(); }
};

struct Workload {
  std::string name = "w0";
  std::string path;
  std::vector<WorkloadJob> jobs;  // by submit time, ties by job_id_less (Batsim's submit order)
  std::map<std::string, Profile> profiles;
  std::optional<int> machine_count;  // SWF header MaxProcs (else MaxNodes); JSON nb_res
  int time_limits_from_runtime = 0;  // SWF jobs whose missing field 9 was replaced by the runtime
  // Valid delay jobs whose runtime is strictly greater than their limit: the simulator cuts
  // them there (CTC-SP2 has 7,174, as its README says).
  int jobs_overrunning_limit = 0;
  std::vector<std::string> warnings;  // one line each, for the run summary

  std::size_t invalid_count() const;
};

struct ReadOptions {
  // SWF: a job without a requested time (field 9 <= 0) is invalid instead of getting its
  // runtime as the limit.
  bool reject_missing_time_limit = false;
};

// Reads an SWF (.swf, .swf.gz), Batsim JSON (.json) or DR_EVT CSV (.csv) workload. Gzip is
// recognised by its magic bytes; an unknown extension falls back to sniffing the content.
// Throws std::runtime_error naming the path for unreadable files, unknown formats and errors
// that spoil the whole file (JSON syntax, a CSV without its required columns).
Workload read_workload(const std::string& path, const ReadOptions& options = {});

// The three readers behind read_workload, for callers that already hold the (decompressed)
// text; `path` only labels error messages.
Workload read_swf(const std::string& path, const std::string& text, const ReadOptions& options);
Workload read_batsim_json(const std::string& path, const std::string& text);
// One Batsim JSON profile object (a profile of a workload's "profiles", or one a scheduler
// registers with REGISTER_PROFILE) named `name`; throws std::invalid_argument saying why the
// simulator cannot run it.
Profile read_batsim_profile(const std::string& name, const std::string& json);
Workload read_drevt_csv(const std::string& path, const std::string& text);

// Adds the resize requests of a CSV file `job_id,after,nodes` (a header line, then one request
// per line; `after` in seconds) to the jobs of `workload`. `path` labels the errors. Throws
// std::runtime_error naming the file, the line and the column for an unknown or invalid job,
// nodes that are not a positive integer, a negative or unreadable `after`, and an `after` at or
// beyond the job's run limit (the request could never be made).
void add_resize_requests(const std::string& path, const std::string& text, Workload& workload);
// The same, reading the file at `path` (the --resize option).
void add_resize_requests(const std::string& path, Workload& workload);

}  // namespace batfill::workload
