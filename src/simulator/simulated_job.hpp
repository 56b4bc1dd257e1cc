#pragma once
// A workload job as the stand-in tracks it, from submission to its record in the outputs.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "batfill/simulator/job_record.hpp"
#include "batfill/workload/workload.hpp"

namespace batfill::simulator {

// Held only while the job is in flight (submitted and not yet ended,
// docs/semantics.md#streaming-replay): what the stand-in needs of the workload job is copied in, so
// the reader can move on.
struct SimulatedJob {
  const workload::Profile* profile = nullptr;        // null when the job names an unknown profile
  std::string batsim_id;                             // "w0!<id>", as messages name the job
  std::string extra_json;                            // the job's user fields (Batsim JSON)
  std::vector<workload::ResizeRequest> resize_plan;  // the requests it makes once running
  JobRecord record;
  JobStage stage = JobStage::kNotSubmitted;
  std::uint64_t submit_order = 0;  // how many jobs were submitted before this one
};

// The jobs in flight by slot: a deque, so a job never moves while the stand-in's tables hold
// views of its id, and a slot is reused once its job has ended.
using JobTable = std::deque<SimulatedJob>;

// Fills `job` for the workload job `source`: its record, profile and id as messages name it,
// "<workload_name>!<id>".
void fill_simulated_job(SimulatedJob& job, const workload::WorkloadJob& source,
                        const workload::Profile* profile, const std::string& workload_name);

// A job's end, as the executor reports it.
struct Completion {
  Time time;
  std::size_t slot;  // the job's slot in the stand-in's JobTable
  FinalState state;
  bool operator>(const Completion& other) const { return time > other.time; }
};

}  // namespace batfill::simulator
