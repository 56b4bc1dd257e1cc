#include "replay.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "batfill/adapter/settings.hpp"
#include "batfill/common/machine_set.hpp"
#include "batfill/simulator/run_summary.hpp"
#include "batfill/simulator/simulation.hpp"
#include "batfill/workload/job_stream.hpp"
#include "batfill/workload/transform.hpp"
#include "batfill/workload/workload.hpp"

namespace batfill::python {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// The settings over the defaults, taken in as --sched-cfg's are. A policy the caller made is
// checked against the other settings when the scheduler is made.
adapter::Settings settings_of(const ReplayRequest& request) {
  adapter::Settings settings;
  if (request.make_policy) {
    if (!request.settings_json.empty()) {
      adapter::settings_from_json(request.settings_json).apply_to(settings);
    }
  } else if (!request.settings_json.empty()) {
    adapter::apply_settings_json(request.settings_json, "", settings);
  }
  return settings;
}

std::unique_ptr<workload::JobStream> open_jobs(const ReplayRequest& request) {
  workload::ReadOptions options;
  options.reject_missing_time_limit = request.reject_missing_walltime;
  const std::string& path = request.workload_path;
  if (request.workload_json.empty() && !request.resize_csv) {
    return workload::open_job_stream(path, options);
  }
  workload::Workload whole = request.workload_json.empty()
                                 ? workload::read_workload(path, options)
                                 : workload::read_batsim_json(path, request.workload_json);
  if (request.resize_csv) {
    workload::add_resize_requests(request.resize_label, *request.resize_csv, whole);
  }
  return std::make_unique<workload::WorkloadJobStream>(std::move(whole));
}

bool any_resize_request(const workload::Workload& workload) {
  return std::any_of(workload.jobs.begin(), workload.jobs.end(),
                     [](const workload::WorkloadJob& job) { return !job.resizes.empty(); });
}

std::string summary_text(const ReplayResult& result, const workload::JobStream& jobs,
                         int machine_count, const simulator::MemoryOutputs& outputs,
                         const simulator::RunInfo& run) {
  std::ostringstream out;
  simulator::write_run_summary(out, {jobs, machine_count, result.scheduler, result.transforms},
                               outputs.reasons(), outputs.resize_figures(), result.metrics, run);
  return out.str();
}

}  // namespace

ReplayResult replay(const ReplayRequest& request) {
  const adapter::Settings settings = settings_of(request);
  if (request.nodes && (*request.nodes <= 0 || *request.nodes > kMaxMachines)) {
    throw std::invalid_argument("nodes " + std::to_string(*request.nodes) + ": must be from 1 to " +
                                std::to_string(kMaxMachines));
  }
  workload::check_load_factor(request.load_factor);  // before shake, as the CLI checks them
  std::optional<workload::Shake> shake;
  if (request.shake) shake = workload::parse_shake(*request.shake);

  const Clock::time_point start = Clock::now();
  const double cpu_start = cpu_seconds();
  std::unique_ptr<workload::JobStream> jobs;
  try {
    jobs = open_jobs(request);
  } catch (const std::runtime_error& error) {
    // A workload that cannot be read is bad input, in Python terms (ValueError).
    throw std::invalid_argument(error.what());
  }
  const bool resizes = any_resize_request(jobs->workload());
  const workload::AppliedTransforms applied =
      workload::apply_transforms(jobs, request.load_factor, shake);
  simulator::RunInfo run;
  run.version = "batfill " BATFILL_VERSION;
  run.reading_seconds = seconds_since(start);
  run.reading_cpu_seconds = cpu_seconds() - cpu_start;
  run.load_factor = applied.load_factor;
  run.shake = applied.shake;
  run.queues = settings.scheduler.queues;

  const std::string policy = request.make_policy ? request.policy_name : settings.policy;
  const adapter::Log quiet(adapter::Verbosity::kQuiet);
  std::unique_ptr<adapter::BatsimAdapter> scheduler =
      request.make_policy
          ? std::make_unique<adapter::BatsimAdapter>(policy, request.make_policy,
                                                     settings.scheduler, quiet, settings.batching)
          : std::make_unique<adapter::BatsimAdapter>(policy, settings.scheduler, quiet,
                                                     settings.batching);
  simulator::SimulationOptions options;
  options.platform_file = request.platform_file;
  options.nodes = request.nodes;
  options.resize_requests_replayed = resizes;
  simulator::MemoryOutputs outputs(run.queues, resizes);
  outputs.expect_jobs(jobs->record_count());
  const simulator::SimulationResult simulated = simulator::run_simulation(
      *jobs, *scheduler, options,
      [&outputs](const simulator::JobRecord& job) { outputs.job_ended(job); });

  ReplayResult result;
  result.metrics = outputs.metrics(simulated.machine_count);
  run.scheduling_seconds = simulated.scheduling_seconds;
  run.simulation_seconds = seconds_since(start);
  outputs.finish(result.metrics, run);
  run.cpu_seconds = cpu_seconds() - cpu_start;
  result.jobs = outputs.take_jobs();
  result.schedule = outputs.schedule();
  result.resizes_csv = outputs.resizes_csv();
  result.rejection_reasons = outputs.reasons().groups();
  result.queues = run.queue_figures;
  result.resizes = outputs.resize_figures();
  result.scheduler = adapter::scheduler_description(policy, scheduler->options());
  result.transforms = applied.summary;
  result.records = jobs->record_count();
  result.summary_text = summary_text(result, *jobs, simulated.machine_count, outputs, run);
  return result;
}

}  // namespace batfill::python
