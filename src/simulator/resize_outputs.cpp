#include "batfill/simulator/resize_outputs.hpp"

#include <cstdio>

#include "batfill/common/csv_field.hpp"
#include "batfill/common/text.hpp"

namespace batfill::simulator {

ResizesCsvWriter::ResizesCsvWriter(std::ostream& out) : out_(out) {
  out_ << "job_id,request_time,nodes,grant_time,allocated_resources,release_time,outcome\n";
}

void ResizesCsvWriter::write(const JobRecord& job) {
  std::string row;
  for (const ResizeRecord& request : job.resizes) {
    row.clear();
    append_csv_field(row, job.job.id);
    row += ',';
    append_seconds(row, request.request_time);
    row += ',';
    row += std::to_string(request.nodes);
    row += ',';
    const bool granted = request.outcome == ResizeRecord::Outcome::kGranted;
    if (granted) append_seconds(row, request.grant_time);
    row += ',';
    if (granted) append_machine_set(row, request.machines);
    row += ',';
    append_seconds(row, request.release_time);
    row += ',';
    row += outcome_name(request.outcome);
    out_ << row << '\n';
  }
}

void ResizeFigures::add(const JobRecord& job) {
  not_made += job.resizes_not_made;
  for (const ResizeRecord& request : job.resizes) {
    ++made;
    if (request.outcome != ResizeRecord::Outcome::kGranted) {
      ++cancelled;
      continue;
    }
    ++granted;
    total_wait += to_seconds(request.waiting_time());
    granted_node_seconds += request.nodes * to_seconds(request.release_time - request.grant_time);
  }
}

void write_resize_summary(std::ostream& out, const ResizeFigures& figures) {
  if (figures.made + figures.not_made == 0) return;
  char line[256];
  std::snprintf(line, sizeof line,
                "resize requests: %d made, %d granted (mean wait %.1f s, %.0f node-seconds), "
                "%d cancelled at their job's end\n",
                figures.made, figures.granted, figures.mean_wait(), figures.granted_node_seconds,
                figures.cancelled);
  out << line;
  if (figures.not_made > 0) {
    out << "  " << count_of(figures.not_made, "request")
        << " never made: their job ended (or was rejected) before they fell due\n";
  }
}

}  // namespace batfill::simulator
