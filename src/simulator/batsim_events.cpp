#include "batsim_events.hpp"

#include <string>
#include <utility>

namespace batfill::simulator {

protocol::SimulationBegins simulation_begins(const Platform& platform,
                                             const std::string& sched_config,
                                             const std::string& workload_name,
                                             const std::string& workload_path) {
  protocol::SimulationBegins begins;
  begins.nb_compute_resources = static_cast<int>(platform.compute_hosts.size());
  for (std::size_t id = 0; id < platform.compute_hosts.size(); ++id) {
    protocol::ComputeResource resource;
    resource.id = static_cast<int>(id);
    resource.name = platform.compute_hosts[id]->get_name();
    resource.properties["role"] = "";
    const simgrid::s4u::Host* host = platform.compute_hosts[id];
    for (unsigned long pstate = 0; pstate < host->get_pstate_count(); ++pstate) {
      resource.speeds.push_back(host->get_pstate_speed(pstate));
    }
    begins.compute_resources.push_back(std::move(resource));
  }
  begins.sched_config = sched_config;
  begins.workloads[workload_name] = workload_path;
  return begins;
}

protocol::JobSubmitted job_submitted(const SimulatedJob& job) {
  protocol::JobSubmitted event;
  event.job.id = job.batsim_id;
  event.job.subtime = job.record.job.submit_time;
  event.job.res = job.record.job.nodes;
  event.job.profile = job.record.profile;
  event.job.walltime = job.record.job.time_limit;
  // A Batsim JSON job's own user fields go verbatim (they hold its user and queue); other
  // traces' user (SWF field 12) and queue (field 15) go typed, as Batsim's `user` and `queue`.
  if (!job.extra_json.empty()) {
    event.job.user_fields = protocol::UserFieldsText{job.extra_json};
  } else {
    event.job.user_fields = protocol::TypedUserFields{job.record.job.user, job.record.job.queue};
  }
  // Delay profiles are forwarded, as Batsim does with --forward-profiles-on-submission: the
  // clairvoyant predictor reads the runtime there
  // (docs/semantics.md#predictions-correctors-and-backfill-order).
  if (job.profile != nullptr && job.profile->type == workload::Profile::Type::kDelay) {
    event.forwarded_delay = job.profile->delay;
  }
  return event;
}

protocol::JobCompleted job_completed(SimulatedJob& job, FinalState state) {
  protocol::JobCompleted event;
  event.job_id = job.batsim_id;
  event.state = state == FinalState::kCompletedWalltimeReached
                    ? protocol::JobState::kWalltimeReached
                : state == FinalState::kCompletedFailed ? protocol::JobState::kFailed
                : state == FinalState::kCompletedKilled ? protocol::JobState::kKilled
                                                        : protocol::JobState::kSucceeded;
  // Batsim's return codes: 0 on success, the profile's `ret` on failure, -1 at the walltime
  // and for a killed delay job, -2 for a killed parallel task (docs/protocol.md#job_completed).
  if (state == FinalState::kCompletedKilled) {
    event.return_code = job.profile->type == workload::Profile::Type::kDelay ? -1 : -2;
  } else {
    event.return_code =
        state == FinalState::kCompletedWalltimeReached ? -1 : job.profile->return_code;
  }
  event.alloc = std::move(job.record.machines);
  return event;
}

}  // namespace batfill::simulator
