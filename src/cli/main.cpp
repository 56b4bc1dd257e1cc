// batfill: EASY and CONSERVATIVE backfilling for Batsim.
//
//   batfill simulate WORKLOAD [--platform FILE | --nodes N] [--backfill P] --output PREFIX
//   batfill serve [-s ENDPOINT] [--backfill P | -v VARIANT]
//
// The CLI only parses options and wires the layers together: workload reader, embedded simulator
// and the scheduler (in-process, or any Batsim scheduler over ZeroMQ).

#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "batfill/core/policy_registry.hpp"
#include "batfill/protocol/remote_decision_process.hpp"
#include "batfill/protocol/scheduler_session.hpp"
#include "batfill/protocol/serve.hpp"
#include "batfill/simulator/outputs.hpp"
#include "batfill/simulator/simulation.hpp"
#include "batfill/workload/transform.hpp"
#include "batfill/workload/workload.hpp"
#include "policy_options.hpp"

namespace po = boost::program_options;
using namespace batfill;

namespace {

const char* const kVersion = "batfill 0.1.0";

const char* const kUsage =
    "usage: batfill simulate WORKLOAD [options]   replay a workload on the embedded simulator\n"
    "       batfill serve [options]               run as a Batsim scheduler (ZeroMQ)\n"
    "       batfill policies                      list the scheduling policies\n"
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

// The shortest plain text that reads back as `value` ("1.3", not "1.300000" or "1.3e+00").
std::string number_text(double value) {
  char text[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value && std::strchr(text, 'e') == nullptr) break;
  }
  return text;
}

// Applies --load-factor, then --shake (docs/semantics.md §5.8); returns the summary line, "" when
// the workload is replayed as read.
std::string transform_workload(const po::variables_map& values, workload::Workload& workload) {
  std::string done;
  const double load_factor = values["load-factor"].as<double>();
  workload::scale_load(workload, load_factor);
  if (load_factor != 1) done = "load factor " + number_text(load_factor) + " (inter-arrival times / " + number_text(load_factor) + ")";
  if (values.count("shake")) {
    const workload::Shake shake = workload::parse_shake(values["shake"].as<std::string>());
    workload::shake_submissions(workload, shake);
    done += std::string(done.empty() ? "" : "; ") + "submit times shaken: seed " +
            std::to_string(shake.seed) + ", +-" + number_text(100 * shake.fraction) + " % of each gap";
  }
  return done;
}

int simulate(const std::vector<std::string>& arguments) {
  po::options_description command("batfill simulate WORKLOAD [options]");
  command.add_options()
      ("help,h", "show this help")
      ("workload", po::value<std::string>(), "SWF (.swf, .swf.gz), Batsim JSON or DR_EVT CSV")
      ("platform", po::value<std::string>(), "SimGrid/Batsim platform XML (master_host excluded)")
      ("nodes", po::value<int>(), "machine size: a homogeneous cluster of N nodes, or the first "
                                   "N compute hosts of --platform (default: the workload header)")
      ("output", po::value<std::string>()->default_value("out"),
       "prefix of PREFIX_jobs.csv and PREFIX_schedule.csv")
      ("scheduler", po::value<std::string>(),
       "endpoint of an external Batsim scheduler (e.g. tcp://127.0.0.1:28000); default: batfill's "
       "own, in-process")
      ("timeout", po::value<double>()->default_value(3600),
       "seconds to wait for each reply of an external scheduler")
      ("sched-cfg", po::value<std::string>()->default_value(""),
       "text sent as config.sched-config in SIMULATION_BEGINS, like batsim --sched-cfg")
      ("reject-missing-walltime",
       "SWF: reject jobs without a requested time instead of using their runtime as the limit")
      ("batching", po::value<std::string>()->default_value("instant"),
       "instant: one request per instant, completions then submissions (the spec's rule); "
       "per-event: one request per event, submissions first, completions in start order (pyss)")
      ("load-factor", po::value<double>()->default_value(1, "1"),
       "multiply the load: inter-arrival times are divided by F (docs/semantics.md 5.8)")
      ("shake", po::value<std::string>(),
       "SEED[:PCT]: move each submit time by a seeded random amount within +-PCT % (default 5) of "
       "its gap to the previous submission")
      ("no-progress", "no progress bar on stderr");
  command.add(cli::policy_options_description());
  po::positional_options_description positional;
  positional.add("workload", 1);
  const po::variables_map values = parse(arguments, command, positional);
  if (values.count("help")) {
    std::cout << command << '\n';
    return 0;
  }
  if (!values.count("workload")) throw std::invalid_argument("simulate needs a WORKLOAD file");
  const cli::PolicyChoice choice = cli::resolve_policy_choice(values, protocol::Verbosity::kQuiet);

  workload::ReadOptions read_options;
  read_options.reject_missing_time_limit = values.count("reject-missing-walltime") != 0;
  const auto start = std::chrono::steady_clock::now();
  workload::Workload workload =
      workload::read_workload(values["workload"].as<std::string>(), read_options);
  const std::string transformations = transform_workload(values, workload);
  const double read_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  simulator::SimulationOptions options;
  if (values.count("platform")) options.platform_file = values["platform"].as<std::string>();
  if (values.count("nodes")) options.nodes = values["nodes"].as<int>();
  options.sched_config = values["sched-cfg"].as<std::string>();
  options.batching = simulator::parse_event_batching(values["batching"].as<std::string>());
  options.show_progress = !values.count("no-progress") && isatty(STDERR_FILENO);

  std::unique_ptr<protocol::DecisionProcess> decision_process;
  const protocol::BatsimScheduler* in_process = nullptr;
  if (values.count("scheduler")) {
    const auto timeout = std::chrono::milliseconds(
        static_cast<long long>(values["timeout"].as<double>() * 1000));
    decision_process = std::make_unique<protocol::RemoteDecisionProcess>(
        values["scheduler"].as<std::string>(), timeout);
  } else {
    auto scheduler = std::make_unique<protocol::BatsimScheduler>(
        choice.policy, choice.scheduler, protocol::Log(choice.verbosity));
    in_process = scheduler.get();
    decision_process = std::move(scheduler);
  }

  const simulator::SimulationResult result =
      simulator::run_simulation(workload, *decision_process, options);
  // Named after the run: --sched-cfg may have changed the settings at SIMULATION_BEGINS.
  const std::string scheduler_name =
      in_process == nullptr
          ? "external scheduler at " + values["scheduler"].as<std::string>()
          : "batfill " + in_process->policy() + ", order " +
                to_string(in_process->options().order) + ", alloc " +
                to_string(in_process->options().allocation);
  const simulator::ScheduleMetrics metrics =
      simulator::compute_metrics(result.jobs, result.machine_count);
  simulator::RunInfo run;
  run.version = kVersion;
  run.scheduling_seconds = result.scheduling_seconds;
  run.reading_seconds = read_seconds;
  if (values["load-factor"].as<double>() != 1) run.load_factor = number_text(values["load-factor"].as<double>());
  if (values.count("shake")) {
    const workload::Shake shake = workload::parse_shake(values["shake"].as<std::string>());
    run.shake = std::to_string(shake.seed) + ":" + number_text(100 * shake.fraction);
  }
  run.simulation_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string prefix = values["output"].as<std::string>();
  simulator::write_output_files(prefix, result.jobs, metrics, run);
  // The summary's wall time is the whole command: reading, simulating and writing the outputs.
  run.simulation_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::cout << "batfill simulate: " << workload.path << " (" << workload.jobs.size()
            << " records) on " << result.machine_count
            << " nodes, " << scheduler_name << '\n';
  if (!transformations.empty()) std::cout << "  " << transformations << '\n';
  if (workload.time_limits_from_runtime > 0) {
    std::cout << "  " << workload.time_limits_from_runtime
              << " jobs had no requested time: their runtime was used as the limit\n";
  }
  for (const std::string& warning : workload.warnings) std::cout << "  " << warning << '\n';
  simulator::write_summary(std::cout, result.jobs, metrics, run);
  std::cout << "outputs: " << prefix << "_jobs.csv, " << prefix << "_schedule.csv\n";
  return 0;
}

int serve(const std::vector<std::string>& arguments) {
  po::options_description command("batfill serve [options]");
  command.add_options()
      ("help,h", "show this help")
      ("socket-endpoint,s", po::value<std::string>()->default_value("tcp://*:28000"),
       "ZeroMQ endpoint to bind (Batsim connects to it)")
      ("timeout", po::value<double>()->default_value(3600),
       "seconds without a message from Batsim before giving up");
  command.add(cli::policy_options_description());
  const po::variables_map values = parse(arguments, command, {});
  if (values.count("help")) {
    std::cout << command << '\n';
    return 0;
  }
  const cli::PolicyChoice choice = cli::resolve_policy_choice(values, protocol::Verbosity::kInfo);
  protocol::ServeOptions options;
  options.endpoint = values["socket-endpoint"].as<std::string>();
  options.timeout = std::chrono::milliseconds(
      static_cast<long long>(values["timeout"].as<double>() * 1000));
  options.policy = choice.policy;
  options.scheduler = choice.scheduler;
  options.verbosity = choice.verbosity;
  return protocol::serve(options);
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
    if (command == "policies") {
      for (const PolicyInfo& policy : registered_policies()) {
        std::cout << policy.name << '\t' << policy.description << '\n';
      }
      return 0;
    }
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
  } catch (const po::error& error) {
    std::cerr << "batfill " << command << ": " << error.what() << '\n';
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "batfill " << command << ": error: " << error.what() << '\n';
    return 1;
  }
}
