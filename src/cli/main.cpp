// batfill: EASY and CONSERVATIVE backfilling for Batsim.
//
//   batfill simulate WORKLOAD [--platform FILE | --nodes N] [--backfill P] --output PREFIX
//   batfill serve [-s ENDPOINT] [--backfill P | -v VARIANT]
//
// The CLI only parses options and wires the layers together: workload reader, embedded simulator
// and the scheduler (in-process, or any Batsim scheduler over ZeroMQ).

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <ctime>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "batfill/adapter/batsim_adapter.hpp"
#include "batfill/adapter/settings.hpp"
#include "batfill/common/machine_set.hpp"
#include "batfill/common/text.hpp"
#include "batfill/core/policy_registry.hpp"
#include "batfill/core/prediction.hpp"
#include "batfill/simulator/outputs.hpp"
#include "batfill/simulator/run_summary.hpp"
#include "batfill/simulator/simulation.hpp"
#include "batfill/transport/edc_library.hpp"
#include "batfill/transport/edc_process.hpp"
#include "batfill/transport/remote_decision_process.hpp"
#include "batfill/transport/serve.hpp"
#include "batfill/workload/job_stream.hpp"
#include "batfill/workload/workload.hpp"
#include "check_command.hpp"
#include "option_rules.hpp"
#include "policy_options.hpp"
#include "transform_options.hpp"

namespace po = boost::program_options;
using namespace batfill;

namespace {

const char* const kVersion = "batfill " BATFILL_VERSION;  // from CMake's project()

const char* const kUsage =
    "usage: batfill simulate WORKLOAD [options]   replay a workload on the embedded simulator\n"
    "       batfill serve [options]               run as a Batsim scheduler (ZeroMQ)\n"
    "       batfill check JOBS.csv [options]      validate a Batsim _jobs.csv\n"
    "       batfill policies                      list the policies, predictors and correctors\n"
    "       batfill --version\n"
    "Run 'batfill simulate --help' or 'batfill serve --help' for their options.\n";

po::variables_map parse(const std::vector<std::string>& arguments,
                        const po::options_description& visible,
                        const po::positional_options_description& positional) {
  po::variables_map values;
  po::store(po::command_line_parser(arguments).options(visible).positional(positional).run(),
            values);
  po::notify(values);
  return values;
}

// --timeout in seconds, checked: finite, > 0 and at most a week
// (docs/protocol.md#timeouts-and-exit-statuses-of-batfill-serve), so that the milliseconds handed
// to ZeroMQ never overflow or mean "forever".
std::chrono::milliseconds timeout_option(const po::variables_map& values) {
  const double seconds = values["timeout"].as<double>();
  constexpr double kLongestTimeout = 7 * 24 * 3600.0;
  if (!(seconds >= 0.001 && seconds <= kLongestTimeout)) {
    std::ostringstream text;
    text << "--timeout " << seconds << ": must be a number of seconds from 0.001 to "
         << kLongestTimeout << " (a week)";
    throw std::invalid_argument(text.str());
  }
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

// --nodes, checked against the machine-size limit (docs/semantics.md#machine-size).
int nodes_option(const po::variables_map& values) {
  const int nodes = values["nodes"].as<int>();
  if (nodes <= 0 || nodes > kMaxMachines) {
    throw std::invalid_argument("--nodes " + std::to_string(nodes) + ": must be from 1 to " +
                                std::to_string(kMaxMachines));
  }
  return nodes;
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The process's processor time so far, user and system (std::clock on POSIX).
double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

void add_simulate_options(po::options_description& command) {
  command.add_options()("help,h", "show this help")(
      "workload", po::value<std::string>(), "SWF (.swf, .swf.gz), Batsim JSON or DR_EVT CSV")(
      "platform", po::value<std::string>(), "SimGrid/Batsim platform XML (master_host excluded)")(
      "nodes", po::value<int>(),
      "machine size: a homogeneous cluster of N nodes, or the first "
      "N compute hosts of --platform (default: the workload header)")(
      "output", po::value<std::string>()->default_value("out"),
      "prefix of PREFIX_jobs.csv and PREFIX_schedule.csv")(
      "scheduler", po::value<std::string>(),
      "endpoint of an external Batsim scheduler (e.g. tcp://127.0.0.1:28000); default: batfill's "
      "own, in-process")("timeout", po::value<double>()->default_value(3600),
                         "seconds to wait for each reply of an external scheduler")(
      "scheduler-library", po::value<std::string>(),
      "a Batsim 5 EDC library (libbatfill_edc.so, Batsim's libeasy.so, ...) to drive in-process")(
      "protocol", po::value<std::string>()->default_value("batsim4"),
      "what --scheduler speaks: batsim4 (Batsim 4's JSON) or batsim5 (a Batsim 5 process EDC: "
      "batprotocol JSON, with Batsim 5's handshake)")(
      "scheduler-init", po::value<std::string>()->default_value(""),
      "the init string of a Batsim 5 EDC, --scheduler-library or --scheduler with --protocol "
      "batsim5 (batfill's: the --sched-cfg JSON object)")(
      "sched-cfg", po::value<std::string>()->default_value(""),
      "text sent as config.sched-config in SIMULATION_BEGINS, like batsim --sched-cfg")(
      "reject-missing-walltime",
      "SWF: reject jobs without a requested time instead of using their runtime as the limit")(
      "resize", po::value<std::string>(),
      "CSV job_id,after,nodes: resize requests of running jobs, for any trace format "
      "(docs/semantics.md#resize-requests-of-running-jobs); writes PREFIX_resizes.csv")(
      "no-progress", "no progress bar on stderr")(
      "energy",
      "Batsim's power model (its --energy): power states and switches, SimGrid's host energy "
      "plugin; needs --platform with power properties; writes PREFIX_consumed_energy.csv, "
      "PREFIX_machine_states.csv and PREFIX_pstate_changes.csv")(
      "events", po::value<std::string>(),
      "Batsim's external events file (its --events): one JSON object a line, machine_unavailable "
      "and machine_available with their resources, other types with --forward-unknown-events")(
      "forward-unknown-events",
      "send the events file's events of other types to the scheduler as Batsim does (a NOTIFY "
      "whose data is the event)")(
      "enable-dynamic-jobs",
      "accept the scheduler's REGISTER_PROFILE and REGISTER_JOB, as Batsim's flag of that name; "
      "the simulation then ends only after its NOTIFY registration_finished")(
      "acknowledge-dynamic-jobs",
      "answer each REGISTER_JOB with a JOB_SUBMITTED, as Batsim's flag of that name")(
      "enable-profile-reuse",
      "report profile reuse on in SIMULATION_BEGINS, as Batsim's flag of that name (the stand-in "
      "never forgets a profile)");
  command.add(cli::policy_options_description());
  command.add(cli::transform_options_description());
}

// The workload's jobs, streamed; read whole when the options transform it
// (docs/semantics.md#streaming-replay of docs/semantics.md: shaking re-sorts the jobs, load scaling
// needs the first submission) or
// --resize adds requests to them.
struct OpenedWorkload {
  std::unique_ptr<workload::JobStream> jobs;
  cli::AppliedTransforms transforms;
  bool has_resize_requests = false;
};

bool any_resize_request(const workload::Workload& workload) {
  return std::any_of(workload.jobs.begin(), workload.jobs.end(),
                     [](const workload::WorkloadJob& job) { return !job.resizes.empty(); });
}

OpenedWorkload open_workload(const po::variables_map& values) {
  workload::ReadOptions read_options;
  read_options.reject_missing_time_limit = values.count("reject-missing-walltime") != 0;
  const std::string path = values["workload"].as<std::string>();
  OpenedWorkload opened;
  if (values.count("resize")) {
    workload::Workload whole = workload::read_workload(path, read_options);
    workload::add_resize_requests(values["resize"].as<std::string>(), whole);
    opened.jobs = std::make_unique<workload::WorkloadJobStream>(std::move(whole));
  } else {
    opened.jobs = workload::open_job_stream(path, read_options);
  }
  // Only a workload read whole holds its jobs here; a streamed trace has no requests.
  opened.has_resize_requests = any_resize_request(opened.jobs->workload());
  opened.transforms = cli::apply_transforms(values, opened.jobs);
  return opened;
}

simulator::SimulationOptions simulation_options(const po::variables_map& values) {
  simulator::SimulationOptions options;
  if (values.count("platform")) options.platform_file = values["platform"].as<std::string>();
  if (values.count("nodes")) options.nodes = nodes_option(values);
  options.sched_config = values["sched-cfg"].as<std::string>();
  options.show_progress = !values.count("no-progress") && isatty(STDERR_FILENO);
  options.energy = values.count("energy") != 0;
  if (values.count("events")) options.events_file = values["events"].as<std::string>();
  options.forward_unknown_events = values.count("forward-unknown-events") != 0;
  options.dynamic_jobs = values.count("enable-dynamic-jobs") != 0;
  options.acknowledge_dynamic_jobs = values.count("acknowledge-dynamic-jobs") != 0;
  options.profile_reuse = values.count("enable-profile-reuse") != 0;
  if (options.energy && options.platform_file.empty()) {
    throw std::invalid_argument(
        "--energy needs --platform FILE whose hosts give their power (wattage_per_state)");
  }
  return options;
}

// Who decides: batfill's own adapter in-process, or an external scheduler over ZeroMQ.
struct ChosenDecisionProcess {
  std::unique_ptr<protocol::DecisionProcess> process;
  const adapter::BatsimAdapter* in_process = nullptr;  // null for an external scheduler
};

ChosenDecisionProcess choose_decision_process(const po::variables_map& values,
                                              const adapter::Settings& settings,
                                              adapter::Verbosity verbosity) {
  ChosenDecisionProcess chosen;
  if (values.count("scheduler-library")) {
    chosen.process = std::make_unique<transport::EdcLibrary>(
        values["scheduler-library"].as<std::string>(), values["scheduler-init"].as<std::string>());
    return chosen;
  }
  if (values.count("scheduler")) {
    const auto timeout = timeout_option(values);
    const std::string endpoint = values["scheduler"].as<std::string>();
    if (adapter::parse_protocol(values["protocol"].as<std::string>()) ==
        adapter::Protocol::kBatsim5) {
      chosen.process = std::make_unique<transport::EdcProcess>(
          endpoint, values["scheduler-init"].as<std::string>(), timeout);
    } else {
      chosen.process = std::make_unique<transport::RemoteDecisionProcess>(endpoint, timeout);
    }
    return chosen;
  }
  auto in_process = std::make_unique<adapter::BatsimAdapter>(
      settings.policy, settings.scheduler, adapter::Log(verbosity), settings.batching);
  chosen.in_process = in_process.get();
  chosen.process = std::move(in_process);
  return chosen;
}

// Resize requests are made to batfill's own scheduler only: no Batsim protocol can say them
// (docs/semantics.md#resize-requests-of-running-jobs). --resize is refused beside an external one
// (option_rules.cpp); a workload that carries requests itself runs without them there, with a
// warning.
bool replays_resize_requests(const OpenedWorkload& opened, const ChosenDecisionProcess& chosen) {
  if (!opened.has_resize_requests) return false;
  if (chosen.in_process != nullptr) return true;
  std::cerr << "batfill simulate: warning: resize requests are made only to batfill's own "
               "scheduler; the external one runs every job without them\n";
  return false;
}

// Named after the run: --sched-cfg may have changed the settings at SIMULATION_BEGINS.
// Predictors that learn per user need user ids (SWF field 12, a JSON job's `user`); DR_EVT CSV
// has none. Said on a line of its own under the scheduler.
std::string users_note(const workload::JobStream& jobs, const std::string& predictor) {
  if (predictor != "tsafrir" && predictor != "sgd") return "";
  if (jobs.has_user_ids()) return "";
  return predictor == "tsafrir"
             ? "\n  no job has a user id: predictor tsafrir predicts every walltime"
             : "\n  no job has a user id: predictor sgd learns them all as one user";
}

std::string scheduler_name(const po::variables_map& values, const ChosenDecisionProcess& chosen,
                           const workload::JobStream& jobs) {
  if (const auto* library = dynamic_cast<const transport::EdcLibrary*>(chosen.process.get())) {
    return "Batsim 5 EDC " + library->hello().name + " " + library->hello().version + " (" +
           library->path() + ")";
  }
  if (const auto* edc = dynamic_cast<const transport::EdcProcess*>(chosen.process.get())) {
    return "Batsim 5 EDC " + edc->hello().name + " " + edc->hello().version + " at " +
           edc->endpoint();
  }
  if (chosen.in_process == nullptr) {
    return "external scheduler at " + values["scheduler"].as<std::string>();
  }
  const adapter::BatsimAdapter& adapter = *chosen.in_process;
  return adapter::scheduler_description(adapter.policy(), adapter.options()) +
         users_note(jobs, adapter.options().predictor);
}

// The summary on stdout, after the output files.
void print_summary(const workload::JobStream& jobs, const simulator::SimulationResult& result,
                   const std::string& scheduler, const cli::AppliedTransforms& transforms,
                   const simulator::OutputFiles& outputs, const simulator::ScheduleMetrics& metrics,
                   const simulator::RunInfo& run) {
  simulator::write_run_summary(std::cout,
                               {jobs, result.machine_count, scheduler, transforms.summary},
                               outputs.reasons(), outputs.resize_figures(), metrics, run);
  std::cout << "outputs: " << outputs.names() << '\n';
}

// The settings the scheduler runs with: --sched-cfg's over the command line's (docs/protocol.md
// docs/protocol.md#--sched-cfg). Read once, here, so that a bad --sched-cfg fails before the
// workload is read; the scheduler gets the text itself in SIMULATION_BEGINS, as from Batsim.
adapter::Settings settings_in_force(const po::variables_map& values, adapter::Settings settings) {
  const std::string& text = values["sched-cfg"].as<std::string>();
  if (text.empty()) return settings;
  adapter::apply_settings_json(text, "--sched-cfg", settings);
  return settings;
}

int simulate(const std::vector<std::string>& arguments) {
  po::options_description command("batfill simulate WORKLOAD [options]");
  add_simulate_options(command);
  po::positional_options_description positional;
  positional.add("workload", 1);
  const po::variables_map values = parse(arguments, command, positional);
  if (values.count("help")) {
    std::cout << command << '\n';
    return 0;
  }
  if (!values.count("workload")) throw std::invalid_argument("simulate needs a WORKLOAD file");
  cli::check_option_rules(values, cli::simulate_option_rules());
  cli::check_scheduler_protocol(values);
  const adapter::Settings settings = cli::command_line_settings(values);
  const adapter::Verbosity verbosity = cli::verbosity_option(values, adapter::Verbosity::kQuiet);

  const Clock::time_point start = Clock::now();
  const double cpu_start = cpu_seconds();
  // Reading is the first pass over the whole file (validation, counts); the jobs themselves
  // are read again as the simulation submits them.
  const OpenedWorkload opened = open_workload(values);
  simulator::RunInfo run;
  run.version = kVersion;
  run.reading_seconds = seconds_since(start);
  run.reading_cpu_seconds = cpu_seconds() - cpu_start;
  run.load_factor = opened.transforms.load_factor;
  run.shake = opened.transforms.shake;
  run.queues = settings_in_force(values, settings).scheduler.queues;
  const ChosenDecisionProcess chosen = choose_decision_process(values, settings, verbosity);
  simulator::SimulationOptions options = simulation_options(values);
  options.resize_requests_replayed = replays_resize_requests(opened, chosen);
  // Rows of _jobs.csv are written as jobs end, and the jobs forgotten.
  const std::string prefix = values["output"].as<std::string>();
  simulator::OutputFiles outputs(prefix, run.queues, options.resize_requests_replayed,
                                 options.energy);
  options.energy_traces = outputs.power_traces();
  const simulator::SimulationResult result = simulator::run_simulation(
      *opened.jobs, *chosen.process, options,
      [&outputs](const simulator::JobRecord& job) { outputs.job_ended(job); });
  run.scheduling_seconds = result.scheduling_seconds;
  run.energy = result.energy;
  const simulator::ScheduleMetrics metrics = outputs.metrics(result.machine_count);
  run.simulation_seconds = seconds_since(start);
  outputs.finish(metrics, run);  // fills run.queue_figures
  // The summary's wall time is the whole command: reading, simulating and writing the outputs.
  run.simulation_seconds = seconds_since(start);
  run.cpu_seconds = cpu_seconds() - cpu_start;
  print_summary(*opened.jobs, result, scheduler_name(values, chosen, *opened.jobs),
                opened.transforms, outputs, metrics, run);
  return 0;
}

int serve(const std::vector<std::string>& arguments) {
  po::options_description command("batfill serve [options]");
  command.add_options()("help,h", "show this help")(
      "socket-endpoint,s", po::value<std::string>()->default_value("tcp://*:28000"),
      "ZeroMQ endpoint to bind (Batsim connects to it)")(
      "timeout", po::value<double>()->default_value(3600),
      "seconds without a message from Batsim before giving up")(
      "protocol", po::value<std::string>()->default_value("batsim4"),
      "batsim4 (Batsim 4's JSON) or batsim5 (batprotocol JSON, with Batsim 5's handshake)");
  command.add(cli::policy_options_description());
  const po::variables_map values = parse(arguments, command, {});
  if (values.count("help")) {
    std::cout << command << '\n';
    return 0;
  }

  transport::ServeOptions options;
  options.settings = cli::command_line_settings(values);
  options.verbosity = cli::verbosity_option(values, adapter::Verbosity::kInfo);
  options.endpoint = values["socket-endpoint"].as<std::string>();
  options.timeout = timeout_option(values);
  options.protocol = adapter::parse_protocol(values["protocol"].as<std::string>());
  return transport::serve(options);
}

// The names the settings take, each policy on a line of its own first, then "--predictor NAME"
// and the like.
int list_policies() {
  for (const adapter::SettingChoice& choice : adapter::setting_choices()) {
    if (choice.flag != "backfill") std::cout << "--" << choice.flag << ' ';
    std::cout << choice.name << '\t' << choice.description << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  const std::vector<std::string> arguments(argv + 2, argv + argc);
  try {
    if (command == "simulate") return simulate(arguments);
    if (command == "serve") return serve(arguments);
    if (command == "check") return cli::check_command(arguments);
    if (command == "policies") return list_policies();
    if (command == "--version") {
      std::cout << kVersion << '\n';
      return 0;
    }
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kUsage;
      return 0;
    }
    std::cerr << "batfill: unknown command '" << command << "'\n" << kUsage;
    return 2;
  } catch (const simulator::Interrupted& stopped) {
    std::cerr << "batfill " << command << ": " << stopped.what() << '\n';
    return 128 + stopped.signal;  // as the shell reports a process the signal killed
  } catch (const po::error& error) {
    std::cerr << "batfill " << command << ": " << error.what() << '\n';
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "batfill " << command << ": error: " << error.what() << '\n';
    return 1;
  }
}
