#pragma once
// Helpers for the end-to-end tests: run the batfill binary, read its CSV outputs.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace batfill::cli_testing {

// Every registered policy and every queue order (docs/usage.md#the-policies), for the combination
// tests.
inline const std::vector<std::string> kPolicies = {"none", "easy", "conservative", "easy-classic",
                                                   "conservative-classic"};
inline const std::vector<std::string> kQueueOrders = {"fcfs",
                                                      "lcfs",
                                                      "asc_walltime",
                                                      "desc_walltime",
                                                      "asc_size",
                                                      "desc_size",
                                                      "desc_slowdown",
                                                      "desc_bounded_slowdown",
                                                      "wfp3",
                                                      "unicep",
                                                      "wfp3_rlscheduler",
                                                      "unicep_rlscheduler",
                                                      "f1",
                                                      "f2",
                                                      "f3",
                                                      "f4"};

// A file of the repository, found through the source directory CMake compiled in: tests never
// depend on the directory they run from.
inline std::string source_path(const std::string& relative) {
  return std::string(BATFILL_SOURCE_DIR) + "/" + relative;
}

// A Unix socket endpoint of this test process's own, named `name`: tests that ctest runs in
// parallel never bind the same one.
inline std::string ipc_endpoint(const std::string& name) {
  return "ipc:///tmp/batfill-test-" + std::to_string(getpid()) + "-" + name + ".sock";
}

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline CommandResult run(const std::string& arguments) {
  const std::string command = std::string(BATFILL_BINARY) + " " + arguments + " 2>&1";
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) result.output += buffer;
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// A fresh directory for one test's outputs, under the build tree.
inline std::string output_dir() {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(test->test_suite_name()) + "." + test->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  const std::filesystem::path dir =
      std::filesystem::path(BATFILL_BUILD_DIR) / "test-outputs" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

using CsvRow = std::map<std::string, std::string>;

// Splits one CSV line; batfill's outputs quote only the metadata column ("").
inline std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
      field += c;
    } else if (c == ',' && !quoted) {
      fields.push_back(field);
      field.clear();
    } else {
      field += c;
    }
  }
  fields.push_back(field);
  return fields;
}

inline std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream file(path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(file, line)) lines.push_back(line);
  return lines;
}

// Rows keyed by the header's column names.
inline std::vector<CsvRow> read_csv(const std::string& path) {
  const std::vector<std::string> lines = read_lines(path);
  std::vector<CsvRow> rows;
  if (lines.empty()) return rows;
  const std::vector<std::string> header = split_csv_line(lines.front());
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> fields = split_csv_line(lines[i]);
    CsvRow row;
    for (std::size_t c = 0; c < header.size() && c < fields.size(); ++c) row[header[c]] = fields[c];
    row["#fields"] = std::to_string(fields.size());
    rows.push_back(row);
  }
  return rows;
}

inline std::string read_file(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// `batfill check` on a schedule a test produced
// (docs/semantics.md#checking-a-schedule-batfill-check): no machine runs two jobs at once,
// allocations have the requested size, times are consistent, and with a workload every job appears
// once. `limits`: "--nodes N", "--platform F" and/or "--workload W".
inline void expect_valid_schedule(const std::string& jobs_csv, const std::string& limits = "") {
  const CommandResult check = run("check " + jobs_csv + " " + limits);
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find(" 0 violations"), std::string::npos) << check.output;
}

struct ExternalRun {
  CommandResult simulate;
  int serve_exit_code = -1;
  std::string serve_log;
};

// Starts `peer` (a decision process serving `endpoint`) in the background, runs the simulator
// against it, then waits (bounded) for the peer to exit on its own after SIMULATION_ENDS.
inline ExternalRun run_beside_peer(const std::string& peer, const std::string& endpoint,
                                   const std::string& simulate_arguments, const std::string& dir) {
  const std::string exit_file = dir + "/serve.exit";
  const std::string log_file = dir + "/serve.log";
  const std::string background =
      "sh -c '" + peer + " > " + log_file + " 2>&1; echo $? > " + exit_file + "' &";
  EXPECT_EQ(std::system(background.c_str()), 0);
  ExternalRun result;
  result.simulate = run(simulate_arguments + " --scheduler " + endpoint + " --timeout 60");
  for (int i = 0; i < 600 && !std::filesystem::exists(exit_file); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // let echo finish writing
  const std::string code = read_file(exit_file);
  if (!code.empty()) result.serve_exit_code = std::stoi(code);
  result.serve_log = read_file(log_file);
  return result;
}

// The same beside `batfill serve` with `serve_options`.
inline ExternalRun run_external(const std::string& endpoint, const std::string& serve_options,
                                const std::string& simulate_arguments, const std::string& dir) {
  return run_beside_peer(std::string(BATFILL_BINARY) + " serve -s " + endpoint +
                             " --timeout 60 " + serve_options,
                         endpoint, simulate_arguments, dir);
}

}  // namespace batfill::cli_testing
