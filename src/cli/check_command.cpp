#include "check_command.hpp"

#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <simgrid/s4u.hpp>
#include <sstream>
#include <stdexcept>

#include "batfill/check/schedule_check.hpp"
#include "batfill/common/text.hpp"
#include "batfill/workload/workload.hpp"
#include "option_rules.hpp"

namespace po = boost::program_options;

namespace batfill::cli {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read " + quoted(path));
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

bool has_role(const simgrid::s4u::Host* host, const char* role) {
  const char* value = host->get_property("role");
  return value != nullptr && std::string(value) == role;
}

// Batsim's machine count for a platform: every host but the master and the storage hosts
// (docs/usage.md#replaying-a-trace-batfill-simulate, `--platform`).
int compute_host_count(const std::string& platform) {
  if (!std::ifstream(platform))
    throw std::runtime_error("cannot read platform " + quoted(platform));
  std::vector<std::string> arguments = {"batfill", "--log=root.thresh:warning"};
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  int argc = static_cast<int>(argv.size());
  simgrid::s4u::Engine engine(&argc, argv.data());
  engine.load_platform(platform);
  int count = 0;
  for (const simgrid::s4u::Host* host : engine.get_all_hosts()) {
    if (host->get_name() != "master_host" && !has_role(host, "master") &&
        !has_role(host, "storage")) {
      ++count;
    }
  }
  return count;
}

check::CheckOptions check_options(const po::variables_map& values) {
  check::CheckOptions options;
  if (values.count("nodes")) {
    const int nodes = values["nodes"].as<int>();
    if (nodes <= 0) throw std::invalid_argument("--nodes must be positive");
    options.machine_count = nodes;
  }
  if (values.count("platform"))
    options.machine_count = compute_host_count(values["platform"].as<std::string>());
  if (values.count("workload")) {
    std::set<std::string> ids;
    for (const workload::WorkloadJob& job :
         workload::read_workload(values["workload"].as<std::string>()).jobs) {
      ids.insert(job.job.id);
    }
    options.workload_ids = std::move(ids);
  }
  return options;
}

// The file `option` names, else PREFIX`suffix` beside PREFIX_jobs.csv if there is one, read
// unasked: PREFIX_resizes.csv (granted machines are held too, and a check that ignored them
// could pass a machine used twice) and PREFIX_pstate_changes.csv (no job may run on a machine
// asleep or switching; docs/usage.md, `check`).
std::string sibling_file(const po::variables_map& values, const char* option,
                         const std::string& jobs_path, const std::string& suffix) {
  if (values.count(option)) return values[option].as<std::string>();
  const std::string jobs = "_jobs.csv";
  if (jobs_path.size() < jobs.size() ||
      jobs_path.compare(jobs_path.size() - jobs.size(), jobs.size(), jobs) != 0) {
    return "";
  }
  const std::string sibling = jobs_path.substr(0, jobs_path.size() - jobs.size()) + suffix;
  return std::ifstream(sibling) ? sibling : "";
}

}  // namespace

int check_command(const std::vector<std::string>& arguments) {
  po::options_description command("batfill check JOBS.csv [options]");
  command.add_options()("help,h", "show this help")("jobs", po::value<std::string>(),
                                                    "a Batsim _jobs.csv (batfill's, Batsim's)")(
      "platform", po::value<std::string>(), "allocations must lie within its compute hosts")(
      "nodes", po::value<int>(), "allocations must lie within machines 0..N-1")(
      "workload", po::value<std::string>(), "every job of this workload must appear exactly once")(
      "resizes", po::value<std::string>(),
      "batfill's PREFIX_resizes.csv (default: the one beside JOBS.csv, if any): granted machines "
      "count as used")(
      "pstate-changes", po::value<std::string>(),
      "an --energy run's PREFIX_pstate_changes.csv (default: the one beside JOBS.csv, if any): no "
      "job may run on a machine asleep or switching");
  po::positional_options_description positional;
  positional.add("jobs", 1);
  po::variables_map values;
  po::store(po::command_line_parser(arguments).options(command).positional(positional).run(),
            values);
  po::notify(values);
  if (values.count("help")) {
    std::cout << command << '\n';
    return 0;
  }
  if (!values.count("jobs")) throw std::invalid_argument("check needs a JOBS.csv file");
  check_option_rules(values, check_option_rules());
  const std::string path = values["jobs"].as<std::string>();
  check::CheckOptions options = check_options(values);
  const std::vector<check::ScheduledJob> jobs = check::read_jobs_csv(path, read_text(path));
  const std::string resizes = sibling_file(values, "resizes", path, "_resizes.csv");
  if (!resizes.empty()) options.resizes = check::read_resizes_csv(resizes, read_text(resizes));
  const std::string pstates = sibling_file(values, "pstate-changes", path, "_pstate_changes.csv");
  if (!pstates.empty()) {
    options.power_spans = check::read_pstate_changes_csv(pstates, read_text(pstates));
  }
  const std::vector<std::string> violations = check::check_schedule(jobs, options);
  if (!options.workload_ids) {
    std::cerr << "batfill check: warning: without --workload, jobs missing from " << path
              << " go unnoticed (the file of an interrupted run looks whole)\n";
  }
  for (const std::string& violation : violations) std::cout << path << ": " << violation << '\n';
  const std::string requests =
      resizes.empty() ? ""
                      : count_of(static_cast<long long>(options.resizes.size()), "resize request") +
                            " (" + resizes + "), ";
  const std::string power =
      pstates.empty() ? ""
                      : count_of(static_cast<long long>(options.power_spans.size()), "power span") +
                            " (" + pstates + "), ";
  std::cout << path << ": " << count_of(static_cast<long long>(jobs.size()), "job") << ", "
            << requests << power << count_of(static_cast<long long>(violations.size()), "violation")
            << '\n';
  return violations.empty() ? 0 : 1;
}

}  // namespace batfill::cli
