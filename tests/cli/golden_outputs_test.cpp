// Golden outputs: every bundled trace under every policy, and the replies of `batfill serve` on
// two of them, must stay byte for byte what a known-good build wrote. Refactors and speed work
// must not change a single schedule; a test here failing means a behaviour changed.
//
// tests/cli/data/golden_outputs.txt holds one line per run: the run's name and the FNV-1a 64-bit
// hash of each compared text. _schedule.csv is compared without its two wall-clock columns
// (scheduling_time, simulation_time). After an intended change of behaviour, and only then, the
// file is rewritten with BATFILL_UPDATE_GOLDEN=1 ctest -R Golden.

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cli_support.hpp"

namespace batfill {
namespace {

const std::string kGoldenFile = cli_testing::source_path("tests/cli/data/golden_outputs.txt");

std::string fnv1a(const std::string& text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, hash);
  return hex;
}

// _schedule.csv with the wall-clock columns emptied: they measure the machine, not the schedule.
std::string without_wall_clock(const std::string& schedule_csv) {
  const std::vector<std::string> lines = [&] {
    std::vector<std::string> result;
    std::istringstream in(schedule_csv);
    for (std::string line; std::getline(in, line);) result.push_back(line);
    return result;
  }();
  if (lines.size() != 2) return schedule_csv;
  const std::vector<std::string> header = cli_testing::split_csv_line(lines[0]);
  std::vector<std::string> values = cli_testing::split_csv_line(lines[1]);
  for (std::size_t i = 0; i < header.size() && i < values.size(); ++i) {
    if (header[i] == "scheduling_time" || header[i] == "simulation_time") values[i].clear();
  }
  std::string text = lines[0] + '\n';
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + values[i];
  return text + '\n';
}

std::map<std::string, std::string> read_golden() {
  std::map<std::string, std::string> golden;
  std::ifstream in(kGoldenFile);
  std::string name, hashes;
  while (in >> name && std::getline(in, hashes)) golden[name] = hashes.substr(1);
  return golden;
}

void check_or_record(const std::string& name, const std::string& hashes) {
  if (std::getenv("BATFILL_UPDATE_GOLDEN") != nullptr) {
    std::map<std::string, std::string> golden = read_golden();
    golden[name] = hashes;
    std::ofstream out(kGoldenFile);
    for (const auto& [run, line] : golden) out << run << ' ' << line << '\n';
    return;
  }
  const std::map<std::string, std::string> golden = read_golden();
  const auto expected = golden.find(name);
  ASSERT_NE(expected, golden.end()) << name << " has no golden line in " << kGoldenFile;
  EXPECT_EQ(hashes, expected->second) << name;
}

struct Trace {
  const char* name;
  const char* arguments;  // the workload and, where its header gives no size, --nodes
  friend void PrintTo(const Trace& trace, std::ostream* os) { *os << trace.name; }
};

const Trace kTraces[] = {
    {"tiny_swf", "workloads/tiny.swf"},
    {"tiny_json", "workloads/tiny_batsim.json"},
    {"lublin", "workloads/lublin_256.swf"},
    {"drevt", "workloads/drevt-huge_2000jobs.csv --nodes 400"},
    {"kth", "workloads/KTH-SP2-1996-2.1-cln.swf.gz"},
    {"ctc", "workloads/CTC-SP2-1996-3.1-cln.swf.gz"},
    {"sdsc_sp2", "workloads/SDSC-SP2-1998-4.2-cln.swf.gz"},
    {"sdsc_blue", "workloads/SDSC-BLUE-2000-4.2-cln.swf.gz"},
    {"nasa", "workloads/NASA-iPSC-1993-3.1-cln.swf.gz"},
};

class GoldenOutputs : public ::testing::TestWithParam<Trace> {};

TEST_P(GoldenOutputs, EveryPolicyWritesTheRecordedFiles) {
  const Trace& trace = GetParam();
  const std::string dir = cli_testing::output_dir();
  for (const std::string& policy : cli_testing::kPolicies) {
    const std::string prefix = dir + "/" + policy;
    const cli_testing::CommandResult result =
        cli_testing::run("simulate " + cli_testing::source_path(trace.arguments) +
                         " --no-progress --backfill " + policy + " --output " + prefix);
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::string jobs = cli_testing::read_file(prefix + "_jobs.csv");
    const std::string schedule =
        without_wall_clock(cli_testing::read_file(prefix + "_schedule.csv"));
    check_or_record(std::string(trace.name) + "/" + policy, fnv1a(jobs) + " " + fnv1a(schedule));
    std::filesystem::remove(prefix + "_jobs.csv");
  }
}

INSTANTIATE_TEST_SUITE_P(BundledTraces, GoldenOutputs, ::testing::ValuesIn(kTraces),
                         [](const ::testing::TestParamInfo<Trace>& info) {
                           return std::string(info.param.name);
                         });

// The replies `batfill serve` sends, as its debug log shows them ("reply #K: ..."), while the
// embedded stand-in plays Batsim.
class GoldenServeReplies : public ::testing::TestWithParam<Trace> {};

TEST_P(GoldenServeReplies, EveryPolicyAnswersAsRecorded) {
  const Trace& trace = GetParam();
  const std::string dir = cli_testing::output_dir();
  for (const std::string& policy : cli_testing::kPolicies) {
    const std::string endpoint = "ipc:///tmp/batfill-golden-" + std::to_string(getpid()) + ".sock";
    const cli_testing::ExternalRun external =
        cli_testing::run_external(endpoint, "--verbosity debug --backfill " + policy,
                                  "simulate " + cli_testing::source_path(trace.arguments) +
                                      " --no-progress --output " + dir + "/" + policy,
                                  dir);
    ASSERT_EQ(external.simulate.exit_code, 0) << external.simulate.output;
    ASSERT_EQ(external.serve_exit_code, 0) << external.serve_log;
    std::string replies;
    std::istringstream log(external.serve_log);
    for (std::string line; std::getline(log, line);) {
      if (line.rfind("batfill: reply #", 0) == 0) replies += line + '\n';
    }
    EXPECT_FALSE(replies.empty()) << external.serve_log;
    check_or_record(std::string("serve/") + trace.name + "/" + policy, fnv1a(replies));
    std::filesystem::remove(dir + "/serve.exit");
  }
}

INSTANTIATE_TEST_SUITE_P(
    BundledTraces, GoldenServeReplies,
    ::testing::Values(Trace{"tiny_json", "workloads/tiny_batsim.json"},
                      Trace{"drevt", "workloads/drevt-huge_2000jobs.csv --nodes 400"}),
    [](const ::testing::TestParamInfo<Trace>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace batfill
