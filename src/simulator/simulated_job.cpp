#include "simulated_job.hpp"

namespace batfill::simulator {

const workload::Profile* ProfileLookup::find(const std::string& name) {
  const auto known = resolved_.find(name);
  if (known != resolved_.end()) return known->second;
  const auto profile = workload_.profiles.find(name);
  // An unknown name is not remembered: a streamed workload may define it later.
  if (profile == workload_.profiles.end()) return nullptr;
  return resolved_.emplace(name, &profile->second).first->second;
}

void fill_simulated_job(SimulatedJob& job, const workload::WorkloadJob& source,
                        const workload::Profile* profile, const std::string& workload_name) {
  job.profile = profile;
  job.batsim_id.assign(workload_name).append("!").append(source.job.id);
  job.extra_json = source.extra_json;
  job.record = record_of(source);
  job.record.workload_name = workload_name;
  job.stage = SimulatedJob::Stage::kNotSubmitted;
}

}  // namespace batfill::simulator
