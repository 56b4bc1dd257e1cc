#pragma once
// The events the stand-in sends, filled as Batsim fills them.

#include <string>

#include "batfill/protocol/messages.hpp"
#include "platform.hpp"
#include "simulated_job.hpp"

namespace batfill::simulator {

// SIMULATION_BEGINS: the compute machines by Batsim id, the scheduler's configuration and the
// one workload, named `workload_name`.
protocol::SimulationBegins simulation_begins(const Platform& platform,
                                             const std::string& sched_config,
                                             const std::string& workload_name,
                                             const std::string& workload_path);

// JOB_SUBMITTED of a valid job, with its user fields from a Batsim JSON workload.
protocol::JobSubmitted job_submitted(const SimulatedJob& job);

// JOB_COMPLETED of a job that ran and whose record has gone out: its machines move into the
// event, as a copy would allocate the set again for a record nobody reads any more.
protocol::JobCompleted job_completed(SimulatedJob& job, FinalState state);

}  // namespace batfill::simulator
