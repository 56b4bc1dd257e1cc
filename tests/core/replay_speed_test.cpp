// A quick local speed check, not a test: run with
//   build-core/tests/core_tests --gtest_also_run_disabled_tests --gtest_filter='*ReplaySpeed*'
// Replays a synthetic CTC-SP2-sized workload (77k jobs, 338 nodes), or the plain-text SWF file
// named by BATFILL_SPEED_SWF (machine size BATFILL_SPEED_NODES, default 338), through every
// policy (or only BATFILL_SPEED_POLICY) and prints the time each takes. Nothing is asserted about
// time.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

using testing::TraceJob;

// SWF conventions of docs/semantics.md#swf: nodes = requested (field 8) or allocated (field 5);
// the limit is field 9, or the runtime when missing.
std::vector<TraceJob> read_swf(const std::string& path, int machine) {
  std::ifstream in(path);
  std::vector<TraceJob> trace;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == ';') continue;
    std::istringstream fields(line);
    long id, submit, wait, runtime, allocated, requested, limit;
    double cpu, memory;  // fractional in some traces
    if (!(fields >> id >> submit >> wait >> runtime >> allocated >> cpu >> memory >> requested >>
          limit)) {
      continue;
    }
    TraceJob t;
    t.job.id = std::to_string(id);
    t.job.submit_time = from_seconds(submit);
    t.job.nodes = static_cast<int>(requested > 0 ? requested : allocated);
    if (t.job.nodes > machine || runtime < 0) continue;
    t.runtime = from_seconds(runtime);
    t.job.time_limit = from_seconds(limit > 0 ? limit : runtime);
    trace.push_back(t);
  }
  return trace;
}

// CTC-SP2-sized (77k jobs) at a load of about 0.8: many small jobs, limits that overestimate.
std::vector<TraceJob> synthetic(int machine) {
  std::mt19937_64 random(4);
  std::vector<TraceJob> trace;
  Time submit = 0;
  for (int i = 0; i < 77'000; ++i) {
    submit += from_seconds(std::exponential_distribution<double>(1.0 / 2000)(random) + 1);
    TraceJob t;
    t.job.id = std::to_string(i);
    t.job.submit_time = submit - submit % kMicrosecondsPerSecond;
    const int power = std::uniform_int_distribution<int>(0, 8)(random);
    t.job.nodes = std::min(machine, 1 << power);
    t.job.time_limit = from_seconds(std::uniform_int_distribution<int>(60, 64'800)(random));
    t.runtime = t.job.time_limit / std::uniform_int_distribution<int>(1, 10)(random);
    trace.push_back(t);
  }
  return trace;
}

TEST(ReplaySpeed, DISABLED_EveryPolicy) {
  const char* swf = std::getenv("BATFILL_SPEED_SWF");
  const char* nodes = std::getenv("BATFILL_SPEED_NODES");
  const int machine = nodes ? std::atoi(nodes) : 338;
  const std::vector<TraceJob> trace = swf ? read_swf(swf, machine) : synthetic(machine);
  std::cout << (swf ? swf : "synthetic") << ": " << trace.size() << " jobs, " << machine
            << " nodes\n";
  const char* only = std::getenv("BATFILL_SPEED_POLICY");
  for (const PolicyInfo& policy : registered_policies()) {
    if (only && policy.name != only) continue;
    const auto begin = std::chrono::steady_clock::now();
    const testing::ReplayResult result = testing::replay(trace, machine, policy.name);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - begin;
    std::cout << "  " << policy.name << ": " << took.count() << " s, makespan "
              << format_seconds(result.makespan) << "\n";
  }
}

}  // namespace
}  // namespace batfill
