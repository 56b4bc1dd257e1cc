#pragma once
// A workload's jobs one at a time, in Batsim's submit order, so that a replay keeps only the
// jobs in flight (docs/semantics.md#streaming-replay).
//
// An SWF trace or DR_EVT CSV whose records are already in submit order is read twice and never
// held: a first pass validates the whole file (invalid records, duplicate ids, header, order)
// keeping counts and the ids that repeat, then the jobs are read again as the replay asks for
// them. Any other workload (Batsim JSON, a trace out of order) is read whole first.

#include <cstddef>
#include <memory>
#include <string>
#include <unordered_map>

#include "batfill/workload/workload.hpp"

namespace batfill::workload {

class JobStream {
 public:
  virtual ~JobStream() = default;
  // Everything but the jobs, for the whole file: path, machine size, counts, warnings and the
  // profiles (a job's profile is in the map by the time the job is handed out; entries never
  // move). `jobs` may be empty: the jobs come from next().
  virtual const Workload& workload() const = 0;
  // How many records next() hands out in all.
  virtual std::size_t record_count() const = 0;
  // Whether any job has a user id (SWF field 12, a JSON job's `user`), known before the run:
  // predictors that learn per user need them
  // (docs/semantics.md#predictions-correctors-and-backfill-order).
  virtual bool has_user_ids() const = 0;
  // The next job in submit order, or null after the last; valid until the next call.
  virtual const WorkloadJob* next() = 0;
  // The profile of the job next() returned last, null when workload().profiles has none of its
  // name. By default looked up by name (each name once); a reader that knows it says so.
  virtual const Profile* profile_of(const WorkloadJob& job);

 private:
  std::unordered_map<std::string, const Profile*> resolved_;
};

// The jobs of a workload already read whole.
class WorkloadJobStream : public JobStream {
 public:
  explicit WorkloadJobStream(Workload workload);
  const Workload& workload() const override { return workload_; }
  std::size_t record_count() const override { return workload_.jobs.size(); }
  bool has_user_ids() const override { return has_user_ids_; }
  const WorkloadJob* next() override;

 private:
  Workload workload_;
  bool has_user_ids_;
  std::size_t next_ = 0;
};

// Streams an SWF trace or a DR_EVT CSV (plain or gzip) when its records are in submit order,
// else reads the workload whole, as read_workload does; errors are read_workload's.
std::unique_ptr<JobStream> open_job_stream(const std::string& path,
                                           const ReadOptions& options = {});

// The streaming readers behind open_job_stream; null when the records are not in submit order
// (or the file cannot be read: read_workload then names the problem).
std::unique_ptr<JobStream> stream_swf(const std::string& path, const ReadOptions& options);
std::unique_ptr<JobStream> stream_drevt_csv(const std::string& path);

}  // namespace batfill::workload
