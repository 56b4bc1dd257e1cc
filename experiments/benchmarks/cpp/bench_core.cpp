// Parse time of each trace, and the scheduling core alone replaying it per policy (no SimGrid,
// no protocol): where batfill's time goes, beside benchmark.sh's whole runs.

#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "batfill/core/policy_registry.hpp"
#include "batfill/workload/workload.hpp"

#include "support/instant_replay.hpp"

namespace {

const char* const kTraces[] = {BATFILL_SOURCE_DIR "/workloads/KTH-SP2-1996-2.1-cln.swf.gz",
                               BATFILL_SOURCE_DIR "/workloads/CTC-SP2-1996-3.1-cln.swf.gz",
                               BATFILL_SOURCE_DIR "/workloads/SDSC-BLUE-2000-4.2-cln.swf.gz"};

const batfill::workload::Workload& cached(const std::string& path) {
  static std::map<std::string, batfill::workload::Workload> workloads;
  auto it = workloads.find(path);
  if (it == workloads.end())
    it = workloads.emplace(path, batfill::workload::read_workload(path)).first;
  return it->second;
}

void BM_Parse(benchmark::State& state, std::string path) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(batfill::workload::read_workload(path).jobs.size());
  }
}

void BM_CoreReplay(benchmark::State& state, std::string path, std::string policy) {
  const batfill::workload::Workload& workload = cached(path);
  std::vector<batfill::testing::TraceJob> trace;
  for (const auto& job : workload.jobs) {
    if (!job.is_valid()) continue;
    batfill::testing::TraceJob t;
    t.job = job.job;
    t.runtime = workload.profiles.at(job.profile).delay;
    trace.push_back(t);
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        batfill::testing::replay(trace, *workload.machine_count, policy).makespan);
  }
}

int register_benchmarks() {
  for (const char* path : kTraces) {
    const std::string name = std::string(path).substr(std::string(path).rfind('/') + 1);
    benchmark::RegisterBenchmark(("parse/" + name).c_str(), BM_Parse, std::string(path))
        ->Unit(benchmark::kMillisecond);
    for (const batfill::PolicyInfo& policy : batfill::registered_policies()) {
      benchmark::RegisterBenchmark(("core/" + policy.name + "/" + name).c_str(), BM_CoreReplay,
                                   std::string(path), policy.name)
          ->Unit(benchmark::kMillisecond);
    }
  }
  return 0;
}

const int registered = register_benchmarks();

}  // namespace

BENCHMARK_MAIN();
