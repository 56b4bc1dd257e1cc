#pragma once
// Why a job is rejected, kept in its parts so that each reader takes the part it needs: the
// summary groups rejections by the bare reason (docs/semantics.md §6.4), while the log and the
// workload's warnings print the whole text. Every producer fills it: the workload readers (an
// invalid record), the stand-in (an unknown profile, an external scheduler's REJECT_JOB) and the
// core (a job the machine can never run).

#include <string>

namespace batfill {

struct Rejection {
  // The input record, "FILE:LINE" or "FILE:LINE: jobs[i]" (docs/semantics.md §5.5); "" when the
  // rejection does not come from reading the input.
  std::string position;
  // The job as the producer names it ("w0!3" in the core, "3" in the stand-in); "" when the
  // text does not name it.
  std::string job_id;
  // The bare reason: "requests 9 nodes but the machine has 4", or a record's problems joined
  // by "; ".
  std::string why;

  bool empty() const { return position.empty() && job_id.empty() && why.empty(); }
  // Empties every part; the strings keep their buffers for the next rejection.
  void clear() {
    position.clear();
    job_id.clear();
    why.clear();
  }
  // "POSITION: job 'ID' WHY", each part only when present.
  std::string text() const;
};

}  // namespace batfill
