#include "simulated_job.hpp"

#include <string_view>
#include <unordered_map>

namespace batfill::simulator {

std::vector<SimulatedJob> simulated_jobs(const workload::Workload& workload,
                                   const std::string& workload_name) {
  // Each job's profile is resolved once, through a hash of the names: looking names up in the
  // workload's std::map at every submission, start and completion showed up in profiles of
  // large traces.
  std::unordered_map<std::string_view, const workload::Profile*> profiles;
  profiles.reserve(workload.profiles.size());
  for (const auto& [name, profile] : workload.profiles) profiles.emplace(name, &profile);
  std::vector<SimulatedJob> jobs;
  jobs.reserve(workload.jobs.size());
  for (const workload::WorkloadJob& source : workload.jobs) {
    SimulatedJob job;
    job.source = &source;
    const auto profile = profiles.find(source.profile);
    if (profile != profiles.end()) job.profile = profile->second;
    job.batsim_id = workload_name + "!" + source.job.id;
    job.record = record_of(source);
    job.record.workload_name = workload_name;
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace batfill::simulator
