// One scheduling pass after one early completion, with N jobs waiting, per policy: what a
// policy pays for a completion under a long queue
// (docs/semantics.md#conservative-classic--feitelson--weil-1998: conservative-classic compresses
// its reservations after every completion).
//
// The machine has 1,000 nodes. Setup (not timed): running jobs are started at t = 0, N jobs are
// submitted at t = 1 and planned, and a 1-node job completes early at t = 5, so that the timed
// pass is not the first with free nodes (a policy may keep state between passes). The timed
// part is complete() + schedule() at t = 10.
//   few:  a 989-node job runs until t = 10^6 s and a 10-node job is planned to end at
//         t = 1,000 s but completes at t = 10. Waiting: a 10-node job, then N - 1 jobs of the
//         whole machine. Only the first waiting job can use the freed nodes: it starts.
//   many: a 999-node job is planned to end at t = 10^5 s but completes at t = 10. Waiting: N
//         jobs of 100 nodes, 10 to a row. Every reservation moves earlier; the first 10 jobs
//         start.
// The full-machine rows merge in an availability profile, so the setup stays near-linear.

#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "batfill/core/policy_registry.hpp"
#include "batfill/core/scheduler.hpp"

namespace {

using batfill::Job;
using batfill::Scheduler;
using batfill::Time;

constexpr int kMachine = 1000;

Job job_of(const std::string& id, Time submit, int nodes, long limit_seconds) {
  Job job;
  job.id = id;
  job.submit_time = submit;
  job.nodes = nodes;
  job.time_limit = batfill::from_seconds(limit_seconds);
  return job;
}

struct Shape {
  std::vector<Job> running;  // started at t = 0
  std::string completes;     // at t = 10, early
  std::vector<Job> waiting;  // submitted at t = 1
};

Shape few(int n) {
  Shape shape;
  shape.running = {job_of("wide", 0, kMachine - 11, 1000000), job_of("small", 0, 10, 1000),
                   job_of("tick", 0, 1, 1000)};
  shape.completes = "small";
  const Time submit = batfill::from_seconds(1);
  shape.waiting.push_back(job_of("w0", submit, 10, 500));
  for (int i = 1; i < n; ++i) {
    shape.waiting.push_back(job_of("w" + std::to_string(i), submit, kMachine, 100));
  }
  return shape;
}

Shape many(int n) {
  Shape shape;
  shape.running = {job_of("all", 0, kMachine - 1, 100000), job_of("tick", 0, 1, 1000)};
  shape.completes = "all";
  const Time submit = batfill::from_seconds(1);
  for (int i = 0; i < n; ++i) {
    shape.waiting.push_back(job_of("w" + std::to_string(i), submit, kMachine / 10, 100));
  }
  return shape;
}

// A scheduler with the shape's jobs running and waiting, planned, just before the completion.
std::unique_ptr<Scheduler> set_up(const Shape& shape, const std::string& policy) {
  auto scheduler = std::make_unique<Scheduler>(kMachine, batfill::make_policy(policy));
  for (const Job& job : shape.running) scheduler->submit(job);
  scheduler->schedule(0);
  for (const Job& job : shape.waiting) scheduler->submit(job);
  scheduler->schedule(batfill::from_seconds(1));
  scheduler->complete("tick", batfill::from_seconds(5));
  scheduler->schedule(batfill::from_seconds(5));
  return scheduler;
}

void BM_EarlyCompletion(benchmark::State& state, Shape (*make_shape)(int), std::string policy) {
  const Shape shape = make_shape(static_cast<int>(state.range(0)));
  const Time now = batfill::from_seconds(10);
  std::size_t started = 0;
  for (auto _ : state) {
    const std::unique_ptr<Scheduler> scheduler = set_up(shape, policy);
    const auto begin = std::chrono::steady_clock::now();
    scheduler->complete(shape.completes, now);
    started = scheduler->schedule(now).size();
    const auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - begin).count());
  }
  state.counters["started"] = static_cast<double>(started);
}

int register_benchmarks() {
  const std::pair<const char*, Shape (*)(int)> shapes[] = {{"few", few}, {"many", many}};
  for (const auto& [shape_name, make_shape] : shapes) {
    for (const batfill::PolicyInfo& policy : batfill::registered_policies()) {
      for (const int n : {1000, 10000, 100000}) {
        benchmark::RegisterBenchmark(
            ("early_completion/" + std::string(shape_name) + "/" + policy.name).c_str(),
            BM_EarlyCompletion, make_shape, policy.name)
            ->Arg(n)
            ->UseManualTime()
            ->Iterations(n >= 100000  ? 5
                         : n >= 10000 ? 10
                                      : 20)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  return 0;
}

const int registered = register_benchmarks();

}  // namespace

BENCHMARK_MAIN();
