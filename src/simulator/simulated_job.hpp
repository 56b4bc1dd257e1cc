#pragma once
// A workload job as the stand-in tracks it, from submission to its record in the outputs.

#include <cstdint>
#include <string>
#include <vector>

#include "batfill/simulator/job_record.hpp"
#include "batfill/workload/workload.hpp"

namespace batfill::simulator {

struct SimulatedJob {
  const workload::WorkloadJob* source = nullptr;
  const workload::Profile* profile = nullptr;  // null when the job names an unknown profile
  std::string batsim_id;                       // "w0!<id>", as messages name the job
  JobRecord record;
  enum class Stage { kNotSubmitted, kWaiting, kRunning, kEnded } stage = Stage::kNotSubmitted;
  std::uint64_t start_order = 0;  // how many jobs started before this one
};

// The workload's jobs in its order, each with its profile resolved (null when unknown) and its
// id as messages name it, "<workload_name>!<id>".
std::vector<SimulatedJob> simulated_jobs(const workload::Workload& workload,
                                   const std::string& workload_name);

// A job's end, as the executor reports it; `job` is its position in the stand-in's job list.
struct Completion {
  Time time;
  std::size_t job;
  FinalState state;
  bool operator>(const Completion& other) const { return time > other.time; }
};

}  // namespace batfill::simulator
