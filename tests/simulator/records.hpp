#pragma once
// Hand-built job records for the metrics and output tests: no engine needed.

#include <string>

#include "batfill/simulator/job_record.hpp"

namespace batfill::simulator::testing {

// A job as the workload submits it; times in microseconds.
inline JobRecord submitted(const std::string& id, Time submit, int nodes,
                           Time time_limit = kNoTimeLimit, const std::string& profile = "p") {
  JobRecord record;
  record.job.id = id;
  record.job.submit_time = submit;
  record.job.nodes = nodes;
  record.job.time_limit = time_limit;
  record.profile = profile;
  return record;
}

inline JobRecord executed(JobRecord record, FinalState state, Time start, Time finish,
                          const MachineSet& machines) {
  record.state = state;
  record.start_time = start;
  record.finish_time = finish;
  record.machines = machines;
  return record;
}

inline JobRecord rejected(JobRecord record, Rejection rejection) {
  record.state = FinalState::kRejected;
  record.rejection = std::move(rejection);
  return record;
}

// A rejection that gives only its reason.
inline JobRecord rejected(JobRecord record, const std::string& why) {
  return rejected(std::move(record), Rejection("", "", why));
}

}  // namespace batfill::simulator::testing
