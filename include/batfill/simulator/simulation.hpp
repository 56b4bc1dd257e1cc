#pragma once
// The embedded simulator: a Batsim stand-in on SimGrid.
//
// It plays Batsim's side of the protocol: submits the workload's jobs at their submission
// times, runs the jobs the decision process starts (delay jobs by sleeping, parallel profiles
// as SimGrid parallel tasks on the allocated hosts, all stopped at their walltime) and reports
// their completions, one message per instant, as Batsim does (how the events of an instant are
// then handled, one pass or one per event, is the decision process's,
// docs/semantics.md#event-batching---batching). The decision process is either batfill's own
// scheduler in-process or any external Batsim scheduler over ZeroMQ: the messages are the same.

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "batfill/protocol/decision_process.hpp"
#include "batfill/simulator/job_record.hpp"
#include "batfill/simulator/power_outputs.hpp"
#include "batfill/workload/job_stream.hpp"
#include "batfill/workload/workload.hpp"

namespace batfill::simulator {

struct SimulationOptions {
  std::string platform_file;   // a SimGrid/Batsim platform; "" builds a homogeneous cluster
  std::optional<int> nodes;    // cluster size, or the first N compute hosts of the platform
  std::string sched_config;    // forwarded as config.sched-config in SIMULATION_BEGINS
  bool show_progress = false;  // progress bar on stderr (the CLI sets it for terminals)
  // Whether the stand-in makes the jobs' resize requests
  // (docs/semantics.md#resize-requests-of-running-jobs). Only batfill's own scheduler in-process
  // takes them: no Batsim protocol can say them.
  bool resize_requests_replayed = false;
  // --energy: Batsim 4.2.1's power model (docs/protocol.md#the-power-model-of-the-stand-in), its
  // rows written to `energy_traces` when not null. Without it power decisions are refused and
  // nothing of the run changes.
  bool energy = false;
  PowerTraces* energy_traces = nullptr;
  // Batsim's dynamic jobs (docs/protocol.md#dynamic-jobs-in-the-stand-in): REGISTER_PROFILE and
  // REGISTER_JOB accepted (--enable-dynamic-jobs), each job acknowledged with a JOB_SUBMITTED
  // (--acknowledge-dynamic-jobs); profile reuse is only reported (--enable-profile-reuse), as
  // the stand-in never forgets a profile.
  bool dynamic_jobs = false;
  bool acknowledge_dynamic_jobs = false;
  bool profile_reuse = false;
  // --events: Batsim's external events file ("" for none), its events of other types than the
  // machine ones forwarded only with --forward-unknown-events
  // (docs/protocol.md#external-events-of-the-stand-in).
  std::string events_file;
  bool forward_unknown_events = false;
};

struct SimulationResult {
  int machine_count = 0;
  double scheduling_seconds = 0;  // wall time spent waiting for the decision process
  double wall_seconds = 0;
  std::optional<EnergyFigures> energy;  // with --energy only
};

// Runs the whole simulation. Throws std::runtime_error with a clear message when the platform
// or the machine size is unusable, or when the decision process breaks a Batsim rule (unknown
// job, wrong allocation size, busy machine, wake-up in the past, jobs left waiting forever).
// SimGrid allows one engine per process: call it once per process.
// The jobs must hold the readers' guarantees (batfill/workload/workload.hpp): Batsim's submit
// order and unique ids; the simulator relies on them without checking. It takes each job from
// the stream when its submission comes, hands its record to `job_ended` when it ends (in
// Batsim 4's _jobs.csv order) and forgets it, so it holds only the jobs in flight
// (docs/semantics.md#streaming-replay).
// SIGINT or SIGTERM during the simulation stops it at the next instant with Interrupted, which
// says where (simulated time, jobs ended); a second signal of the same kind kills at once.
using JobEnded = std::function<void(const JobRecord&)>;

struct Interrupted : std::runtime_error {
  Interrupted(int received, const std::string& where)
      : std::runtime_error(where), signal(received) {}
  int signal;
};

SimulationResult run_simulation(workload::JobStream& jobs,
                                protocol::DecisionProcess& decision_process,
                                const SimulationOptions& options, const JobEnded& job_ended);

}  // namespace batfill::simulator
