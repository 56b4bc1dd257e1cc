#include "simulated_job.hpp"

namespace batfill::simulator {

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
