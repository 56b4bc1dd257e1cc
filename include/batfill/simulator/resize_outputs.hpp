#pragma once
// PREFIX_resizes.csv and the summary's resize figures
// (docs/semantics.md#resize-requests-of-running-jobs): what became of the resize requests the jobs
// made, written as their jobs end.

#include <ostream>
#include <string>

#include "batfill/simulator/job_record.hpp"

namespace batfill::simulator {

// One row per request a job made, in the order the jobs ended, then the order the requests
// were made: job_id, request_time, nodes, grant_time (empty unless granted),
// allocated_resources (the granted machines, empty unless granted), release_time (the job's
// end: the granted machines came back, or the request was cancelled), outcome.
class ResizesCsvWriter {
 public:
  explicit ResizesCsvWriter(std::ostream& out);
  void write(const JobRecord& job);

 private:
  std::ostream& out_;
};

// Counts and mean wait of the requests, gathered as jobs end.
struct ResizeFigures {
  int made = 0;
  int granted = 0;
  int cancelled = 0;
  int not_made = 0;                 // due at or after their job's end, or of a rejected job
  double granted_node_seconds = 0;  // the granted machines, from grant to release
  double total_wait = 0;            // of the granted requests, in seconds

  void add(const JobRecord& job);
  double mean_wait() const { return granted > 0 ? total_wait / granted : 0; }
};

// "resize requests: ..." lines for the summary; nothing when no job had a request.
void write_resize_summary(std::ostream& out, const ResizeFigures& figures);

}  // namespace batfill::simulator
