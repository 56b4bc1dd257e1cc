#pragma once
// Why a job is rejected, kept in its parts so that each reader takes the part it needs: the
// summary groups rejections by the bare reason (docs/semantics.md#run-summary), while the log and
// the workload's warnings print the whole text. Every producer fills it: the workload readers (an
// invalid record), the stand-in (an unknown profile, an external scheduler's REJECT_JOB) and the
// core (a job the machine can never run).

#include <memory>
#include <string>

namespace batfill {

class Rejection {
 public:
  // No rejection.
  Rejection() = default;
  // `position`: the input record, "FILE:LINE" or "FILE:LINE: jobs[i]"
  // (docs/semantics.md#invalid-records),
  // "" when the rejection does not come from reading the input. `job_id`: the job as the
  // producer names it ("w0!3" in the core, "3" in the stand-in), "" when the text does not name
  // it. `why`: the bare reason, "requests 9 nodes but the machine has 4". All three "" make no
  // rejection.
  Rejection(std::string position, std::string job_id, std::string why);
  Rejection(const Rejection& other);
  Rejection& operator=(const Rejection& other);
  Rejection(Rejection&&) noexcept = default;
  Rejection& operator=(Rejection&&) noexcept = default;
  ~Rejection() = default;

  bool empty() const { return parts_ == nullptr; }
  const std::string& position() const;
  const std::string& job_id() const;
  const std::string& why() const;
  // A problem of the input record at `position`. The first one makes the rejection; each further
  // one joins its reason, "WHY; MORE", the position staying the first's (a record's problems are
  // all reported, docs/semantics.md#invalid-records).
  void add_problem(const std::string& position, const std::string& more);
  void clear() { parts_.reset(); }
  // "POSITION: job 'ID' WHY", each part only when present.
  std::string text() const;

 private:
  struct Parts {
    std::string position, job_id, why;
  };
  // Null for no rejection: every job record holds a Rejection and almost none is rejected, so
  // an empty one costs a pointer, not three strings: 96 bytes fewer in every SimulatedJob,
  // WorkloadJob and Decision, which showed as data-cache misses on every replay.
  std::unique_ptr<Parts> parts_;
};

}  // namespace batfill
