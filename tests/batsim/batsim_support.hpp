#pragma once
// Running a real Batsim 4.2.1 (and batsched) beside batfill, for the opt-in integration tests
// (label `batsim`). The programs come from the environment: BATSIM=.../bin/batsim and
// BATSCHED=.../bin/batsched; without them every test skips, naming the variable.

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../cli/cli_support.hpp"

extern char** environ;

namespace batfill::batsim_testing {

using namespace std::chrono_literals;

// The program named by `variable`, or "" (the caller skips).
inline std::string program_from_env(const char* variable) {
  const char* value = std::getenv(variable);
  return value != nullptr && std::filesystem::exists(value) ? value : "";
}

#define BATFILL_REQUIRE_PROGRAM(variable, path)                                   \
  const std::string path = ::batfill::batsim_testing::program_from_env(variable); \
  if (path.empty())                                                               \
  GTEST_SKIP() << "set " variable "=/path/to/" << #path                           \
               << " to run the real-Batsim integration tests "                    \
                  "(README, \"Beside a real Batsim\"; docs/reliability.md)"

// Batsim's example platforms, installed beside its binary by the shared build script.
inline std::string batsim_platform(const std::string& batsim, const std::string& name) {
  return (std::filesystem::path(batsim).parent_path().parent_path() / "share" / "batsim-platforms" /
          name)
      .string();
}

// A background process (`sh -c COMMAND > LOG 2>&1`), waited for with a bound.
class Process {
 public:
  Process(const std::string& command, const std::string& log) : log_(log) {
    const std::string shell = "exec " + command + " > " + log + " 2>&1";
    const char* argv[] = {"sh", "-c", shell.c_str(), nullptr};
    if (posix_spawn(&pid_, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) {
      pid_ = -1;
    }
  }
  ~Process() {
    if (pid_ > 0 && !done_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  // The exit status, or -1 after `bound` (the process is then killed), or 128+N for signal N.
  int wait(std::chrono::seconds bound) {
    if (pid_ <= 0) return -1;
    const auto deadline = std::chrono::steady_clock::now() + bound;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        done_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(20ms);
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    done_ = true;
    return -1;
  }
  void kill_now() {
    if (pid_ > 0 && !done_) kill(pid_, SIGKILL);
  }
  std::string log() const { return cli_testing::read_file(log_); }

 private:
  std::string log_;
  pid_t pid_ = -1;
  bool done_ = false;
};

// Kills `batsim` mid-run, once `serve` has logged that the simulation began (however long
// Batsim took to load its workload), and expects serve to notice on its own: exit 3 naming the
// closed connection, well within its --timeout.
inline void expect_serve_notices_killed_batsim(Process& serve, Process& batsim) {
  for (int i = 0; i < 600 && serve.log().find("simulation begins") == std::string::npos; ++i) {
    std::this_thread::sleep_for(50ms);
  }
  std::this_thread::sleep_for(500ms);
  batsim.kill_now();
  const auto killed = std::chrono::steady_clock::now();
  EXPECT_EQ(serve.wait(30s), 3) << serve.log();
  EXPECT_LT(std::chrono::steady_clock::now() - killed, 20s);
  EXPECT_NE(serve.log().find("Batsim closed the connection"), std::string::npos) << serve.log();
}

// A free loopback TCP port for one Batsim/scheduler pair: distinct per test process and call.
inline int next_port() {
  static int offset = 0;
  // Below Linux's ephemeral range (32768 and up): a port chosen there can be the local end of
  // some other connection at that moment, and then binding it fails.
  return 20000 + static_cast<int>(getpid() % 1400) * 8 + (offset++ % 8);
}

// Mean of waiting_time over executed jobs of a _jobs.csv.
inline double mean_wait(const std::vector<cli_testing::CsvRow>& rows) {
  double sum = 0;
  int count = 0;
  for (const auto& row : rows) {
    if (row.at("final_state") == "REJECTED" || row.at("waiting_time").empty()) continue;
    sum += std::stod(row.at("waiting_time"));
    ++count;
  }
  return count ? sum / count : 0;
}

// Ids whose start differs by more than 1 s between two schedules, with both starts: the text
// the tests print when the mean waits differ.
inline std::string differing_starts(const std::vector<cli_testing::CsvRow>& a,
                                    const std::vector<cli_testing::CsvRow>& b, int shown = 10) {
  std::map<std::string, std::string> start_a;
  for (const auto& row : a) start_a[row.at("job_id")] = row.at("starting_time");
  std::ostringstream text;
  int differing = 0;
  for (const auto& row : b) {
    const auto found = start_a.find(row.at("job_id"));
    if (found == start_a.end() || found->second.empty() || row.at("starting_time").empty())
      continue;
    if (std::abs(std::stod(found->second) - std::stod(row.at("starting_time"))) > 1.0) {
      if (differing++ < shown) {
        text << " " << row.at("job_id") << " (" << found->second << " vs "
             << row.at("starting_time") << ")";
      }
    }
  }
  return std::to_string(differing) + " jobs start more than 1 s apart:" + text.str();
}

// The end of a log for a failure message: a debug log of a whole trace runs to megabytes.
inline std::string tail(const std::string& log, std::size_t shown = 4000) {
  return log.size() <= shown ? log : "..." + log.substr(log.size() - shown);
}

// Each job's first reservation in seconds, by id without the workload prefix, from the lines
// `reserve w0!7 from 123.000000 s (first reservation, ...)` of serve's debug log.
inline std::map<std::string, double> first_reservations(const std::string& serve_log) {
  std::map<std::string, double> reserved;
  std::istringstream lines(serve_log);
  const std::string tag = "batfill: reserve ";
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(tag, 0) != 0 || line.find("(first reservation") == std::string::npos) continue;
    std::istringstream fields(line.substr(tag.size()));
    std::string id, from;
    double start = 0;
    fields >> id >> from >> start;
    reserved[id.substr(id.rfind('!') + 1)] = start;
  }
  return reserved;
}

// SWF (plain or gzip) as a Batsim JSON workload, with batfill's SWF conventions
// (docs/semantics.md#swf): runtime field 4, nodes field 8 (else 5), walltime field 9 (else the
// runtime), and with `with_users` the user id of field 12 as the job field `user`. Records
// batfill would reject as unreplayable are left out, and so are runtimes of 0, which Batsim
// refuses in a delay profile ("non-strictly-positive 'delay'"). `delay_type` is the profile
// type's name: "delay" for Batsim 4, "DelayProfile" for Batsim 5.
inline std::string swf_to_batsim_json(const std::string& swf_path, int machines,
                                      const std::string& out,
                                      const std::string& delay_type = "delay",
                                      bool with_users = false) {
  gzFile in = gzopen(swf_path.c_str(), "rb");
  EXPECT_NE(in, nullptr) << swf_path;
  std::string text;
  char buffer[1 << 16];
  int got = 0;
  while ((got = gzread(in, buffer, sizeof buffer)) > 0)
    text.append(buffer, static_cast<std::size_t>(got));
  gzclose(in);
  std::ostringstream jobs;
  std::set<long> delays;
  std::istringstream lines(text);
  std::string line;
  bool first = true;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == ';') continue;
    std::istringstream fields(line);
    std::vector<double> f;
    double value = 0;
    while (fields >> value) f.push_back(value);
    if (f.size() < 18) continue;
    const long runtime = static_cast<long>(f[3]);
    const long nodes = static_cast<long>(f[7] > 0 ? f[7] : f[4]);
    const long walltime = static_cast<long>(f[8] > 0 ? f[8] : f[3]);
    if (runtime <= 0 || nodes <= 0 || walltime <= 0 || f[1] < 0) continue;
    delays.insert(runtime);
    jobs << (first ? "" : ",\n") << "{\"id\":\"" << static_cast<long>(f[0])
         << "\",\"subtime\":" << static_cast<long>(f[1]) << ",\"res\":" << nodes
         << ",\"walltime\":" << walltime << ",\"profile\":\"d" << runtime << "\"";
    if (with_users) jobs << ",\"user\":" << static_cast<long>(f[11]);
    jobs << "}";
    first = false;
  }
  std::ofstream json(out);
  json << "{\"nb_res\":" << machines << ",\"jobs\":[\n" << jobs.str() << "],\"profiles\":{";
  first = true;
  for (const long delay : delays) {
    json << (first ? "" : ",") << "\"d" << delay << "\":{\"type\":\"" << delay_type
         << "\",\"delay\":" << delay << "}";
    first = false;
  }
  json << "}}\n";
  return out;
}

// Batsim's cluster512.xml (the file `cluster512`) with `machines` compute hosts: same links,
// same master host.
inline std::string cluster_platform(const std::string& cluster512, int machines,
                                    const std::string& out) {
  std::string xml = cli_testing::read_file(cluster512);
  const std::string radical = "radical=\"0-511\"";
  const std::size_t at = xml.find(radical);
  EXPECT_NE(at, std::string::npos);
  if (at != std::string::npos) {
    xml.replace(at, radical.size(), "radical=\"0-" + std::to_string(machines - 1) + "\"");
  }
  std::ofstream(out) << xml;
  return out;
}

inline std::size_t workload_job_count(const std::string& workload) {
  const std::string text = cli_testing::read_file(workload);
  std::size_t count = 0;
  for (std::size_t at = text.find("\"subtime\""); at != std::string::npos;
       at = text.find("\"subtime\"", at + 1))
    ++count;
  return count;
}

// The embedded simulator on the same inputs, for comparison; its _jobs.csv rows.
inline std::vector<cli_testing::CsvRow> run_embedded(const std::string& platform,
                                                     const std::string& workload,
                                                     const std::string& prefix,
                                                     const std::string& options) {
  const cli_testing::CommandResult result =
      cli_testing::run("simulate " + workload + " --platform " + platform + " --no-progress " +
                       options + " --output " + prefix);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return cli_testing::read_csv(prefix + "_jobs.csv");
}

}  // namespace batfill::batsim_testing
