#include "simulated_job.hpp"

#include <algorithm>

namespace batfill::simulator {

void fill_simulated_job(SimulatedJob& job, const workload::WorkloadJob& source,
                        const workload::Profile* profile, const std::string& workload_name) {
  job.profile = profile;
  job.batsim_id.assign(workload_name).append("!").append(source.job.id);
  job.extra_json = source.extra_json;
  // Field by field into the slot's record, whose strings keep their buffers from the job the
  // slot held before, so that a submission allocates no string.
  JobRecord& record = job.record;
  record.workload_name = workload_name;
  record.job = source.job;
  record.profile = source.profile;
  record.state = FinalState::kRejected;
  record.start_time = 0;
  record.finish_time = 0;
  record.machines.clear();
  record.rejection.clear();
  record.resizes.clear();
  record.resizes_not_made = 0;
  record.consumed_energy.reset();
  record.metadata.clear();
  // In the order they fall due, which is the order they are made and numbered.
  job.resize_plan.clear();
  if (!source.resizes.empty()) {
    job.resize_plan = source.resizes;
    std::stable_sort(job.resize_plan.begin(), job.resize_plan.end(),
                     [](const auto& a, const auto& b) { return a.after < b.after; });
  }
  job.stage = JobStage::kNotSubmitted;
}

}  // namespace batfill::simulator
