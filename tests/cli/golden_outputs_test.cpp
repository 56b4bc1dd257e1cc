// Golden outputs: every bundled trace under every policy, and the replies of `batfill serve` on
// two of them, must stay byte for byte what a known-good build wrote. Refactors and speed work
// must not change a single schedule; a test here failing means a behaviour changed.
//
// tests/cli/data/golden_outputs.txt holds one line per run: the run's name and the FNV-1a 64-bit
// hash of each compared text; it alone decides. _schedule.csv is compared without its two
// wall-clock columns (scheduling_time, simulation_time). So that a failure names the first
// difference (golden_diff.hpp), tests/cli/data also keeps:
// - golden_schedules.txt: each run's _schedule.csv row, under the header of key "#header";
// - golden/*.gz: whole outputs of the tiny traces and the serve replies (a few kB each);
// - golden_fingerprints.txt: for the larger traces (10k to 232k jobs, megabytes even compressed)
//   a hash per column and per block of rows of _jobs.csv.
// After an intended change of behaviour, and only then, all of them are rewritten with
// BATFILL_UPDATE_GOLDEN=1 ctest -R Golden (not in parallel: the runs share the files).

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cli_support.hpp"
#include "golden_diff.hpp"

namespace batfill {
namespace {

using golden::fnv1a;

const std::string kDataDir = cli_testing::source_path("tests/cli/data");
const std::string kGoldenFile = kDataDir + "/golden_outputs.txt";
const std::string kSchedulesFile = kDataDir + "/golden_schedules.txt";
const std::string kFingerprintsFile = kDataDir + "/golden_fingerprints.txt";

bool updating() { return std::getenv("BATFILL_UPDATE_GOLDEN") != nullptr; }

// A file of "KEY VALUE" lines, sorted by key.
std::map<std::string, std::string> read_keyed(const std::string& path) {
  std::map<std::string, std::string> lines;
  std::ifstream in(path);
  std::string key, value;
  while (in >> key && std::getline(in, value)) lines[key] = value.substr(1);
  return lines;
}

void record_keyed(const std::string& path, const std::string& key, const std::string& value) {
  std::map<std::string, std::string> lines = read_keyed(path);
  lines[key] = value;
  std::ofstream out(path);
  for (const auto& [k, v] : lines) out << k << ' ' << v << '\n';
}

// The stored whole copy of a run's output: "serve/drevt/easy" -> golden/serve.drevt.easy.gz.
std::string stored_copy_path(const std::string& run) {
  std::string name = run;
  for (char& c : name) {
    if (c == '/') c = '.';
  }
  return kDataDir + "/golden/" + name + ".gz";
}

// _schedule.csv with the wall-clock columns emptied: they measure the machine, not the schedule.
std::string without_wall_clock(const std::string& schedule_csv) {
  const std::vector<std::string> lines = golden::lines_of(schedule_csv);
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

// How one output of a run is kept beside its hash, to explain a difference.
enum class Detail { kWholeCsv, kWholeLines, kFingerprint, kScheduleRow };

struct Output {
  std::string label;  // as a failure names it: "_jobs.csv", "replies"
  std::string text;
  Detail detail;
};

// About 64 blocks per run, of a power of two rows, at least 64.
std::size_t block_rows_for(std::size_t rows) {
  std::size_t block = 64;
  while (block * 64 < rows) block *= 2;
  return block;
}

void record_detail(const std::string& run, const Output& output) {
  switch (output.detail) {
    case Detail::kWholeCsv:
    case Detail::kWholeLines:
      std::filesystem::create_directories(kDataDir + "/golden");
      golden::write_gzip(stored_copy_path(run), output.text);
      return;
    case Detail::kFingerprint: {
      const std::size_t rows = golden::lines_of(output.text).size();
      record_keyed(kFingerprintsFile, run,
                   fnv1a(output.text) + " " +
                       golden::fingerprint(output.text, block_rows_for(rows)).to_line());
      return;
    }
    case Detail::kScheduleRow: {
      const std::vector<std::string> lines = golden::lines_of(output.text);
      record_keyed(kSchedulesFile, "#header", lines.at(0));
      record_keyed(kSchedulesFile, run, lines.at(1));
      return;
    }
  }
}

// The recorded text of an output kept whole, or "" when the copy is missing or does not match
// the recorded hash (then it is stale and a diff against it would mislead).
std::string recorded_text(const std::string& run, const Output& output,
                          const std::string& recorded_hash) {
  std::string text;
  if (output.detail == Detail::kWholeCsv || output.detail == Detail::kWholeLines) {
    if (std::filesystem::exists(stored_copy_path(run)))
      text = golden::read_gzip(stored_copy_path(run));
  } else if (output.detail == Detail::kScheduleRow) {
    const std::map<std::string, std::string> schedules = read_keyed(kSchedulesFile);
    const auto header = schedules.find("#header");
    const auto row = schedules.find(run);
    if (header != schedules.end() && row != schedules.end()) {
      text = header->second + '\n' + row->second + '\n';
    }
  }
  return fnv1a(text) == recorded_hash ? text : "";
}

std::string explain_fingerprint(const std::string& run, const Output& output,
                                const std::string& recorded_hash) {
  const std::map<std::string, std::string> prints = read_keyed(kFingerprintsFile);
  const auto line = prints.find(run);
  if (line == prints.end()) return "no fingerprint recorded in " + kFingerprintsFile;
  const std::size_t space = line->second.find(' ');
  if (line->second.substr(0, space) != recorded_hash) {
    return "the fingerprint in " + kFingerprintsFile + " is stale (not of hash " + recorded_hash +
           ")";
  }
  const golden::CsvFingerprint recorded =
      golden::CsvFingerprint::parse(line->second.substr(space + 1));
  const golden::CsvFingerprint produced = golden::fingerprint(output.text, recorded.block_rows);
  return golden::describe_difference(recorded, produced);
}

std::string explain(const std::string& run, const Output& output,
                    const std::string& recorded_hash) {
  if (output.detail == Detail::kFingerprint) {
    return explain_fingerprint(run, output, recorded_hash);
  }
  const std::string recorded = recorded_text(run, output, recorded_hash);
  if (recorded.empty()) return "no stored copy matching the recorded hash to compare with";
  if (output.detail == Detail::kWholeLines) {
    return golden::first_line_difference(recorded, output.text).describe();
  }
  return golden::first_csv_difference(recorded, output.text).describe();
}

// Compares (or, when updating, records) a run's outputs; true when all match.
bool check_or_record(const std::string& run, const std::vector<Output>& outputs) {
  std::string hashes;
  for (const Output& output : outputs) hashes += (hashes.empty() ? "" : " ") + fnv1a(output.text);
  if (updating()) {
    record_keyed(kGoldenFile, run, hashes);
    for (const Output& output : outputs) record_detail(run, output);
    return true;
  }
  const std::map<std::string, std::string> golden = read_keyed(kGoldenFile);
  const auto expected = golden.find(run);
  EXPECT_NE(expected, golden.end()) << run << " has no golden line in " << kGoldenFile;
  if (expected == golden.end()) return false;
  std::istringstream recorded_hashes(expected->second);
  bool same = true;
  for (const Output& output : outputs) {
    std::string recorded_hash;
    recorded_hashes >> recorded_hash;
    if (fnv1a(output.text) == recorded_hash) continue;
    same = false;
    ADD_FAILURE() << run << ", " << output.label << ": not as recorded (hash " << fnv1a(output.text)
                  << ", recorded " << recorded_hash << ")\n"
                  << explain(run, output, recorded_hash);
  }
  return same;
}

struct Trace {
  const char* name;
  const char* arguments;  // the workload and, where its header gives no size, --nodes
  Detail detail;          // how its _jobs.csv (serve's replies in GoldenServeReplies) is kept
  friend void PrintTo(const Trace& trace, std::ostream* os) { *os << trace.name; }
};

const Trace kTraces[] = {
    {"tiny_swf", "workloads/tiny.swf", Detail::kWholeCsv},
    {"tiny_json", "workloads/tiny_batsim.json", Detail::kWholeCsv},
    {"lublin", "workloads/lublin_256.swf", Detail::kFingerprint},
    {"drevt", "workloads/drevt-huge_2000jobs.csv --nodes 400", Detail::kFingerprint},
    {"kth", "workloads/KTH-SP2-1996-2.1-cln.swf.gz", Detail::kFingerprint},
    {"ctc", "workloads/CTC-SP2-1996-3.1-cln.swf.gz", Detail::kFingerprint},
    {"sdsc_sp2", "workloads/SDSC-SP2-1998-4.2-cln.swf.gz", Detail::kFingerprint},
    {"sdsc_blue", "workloads/SDSC-BLUE-2000-4.2-cln.swf.gz", Detail::kFingerprint},
    {"nasa", "workloads/NASA-iPSC-1993-3.1-cln.swf.gz", Detail::kFingerprint},
};

// Where the produced output is and, when only a fingerprint was kept, how to see the rows it
// locates: the same run by a known-good build.
std::string how_to_compare(const Trace& trace, const std::string& policy, const std::string& kept) {
  std::string text = "the produced _jobs.csv is kept at " + kept;
  if (trace.detail != Detail::kFingerprint) return text;
  return text + "\nto see the rows, write the same run with a known-good build, from the " +
         "repository's root:\n  batfill simulate " + trace.arguments +
         " --no-progress --backfill " + policy +
         " --output good\nthen compare the block named above, e.g. diff good_jobs.csv " + kept +
         " | head";
}

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
    const std::vector<Output> outputs = {
        {"_jobs.csv", cli_testing::read_file(prefix + "_jobs.csv"), trace.detail},
        {"_schedule.csv", without_wall_clock(cli_testing::read_file(prefix + "_schedule.csv")),
         Detail::kScheduleRow}};
    if (check_or_record(std::string(trace.name) + "/" + policy, outputs)) {
      std::filesystem::remove(prefix + "_jobs.csv");
    } else {
      ADD_FAILURE() << how_to_compare(trace, policy, prefix + "_jobs.csv");
    }
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
    check_or_record(std::string("serve/") + trace.name + "/" + policy,
                    {{"replies", replies, trace.detail}});
    std::filesystem::remove(dir + "/serve.exit");
  }
}

INSTANTIATE_TEST_SUITE_P(
    BundledTraces, GoldenServeReplies,
    ::testing::Values(Trace{"tiny_json", "workloads/tiny_batsim.json", Detail::kWholeLines},
                      Trace{"drevt", "workloads/drevt-huge_2000jobs.csv --nodes 400",
                            Detail::kWholeLines}),
    [](const ::testing::TestParamInfo<Trace>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace batfill
