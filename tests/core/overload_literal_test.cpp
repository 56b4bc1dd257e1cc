// Every policy against its literal transcription (tests/support/literal_policies.hpp) on random
// overloaded workloads: jobs arrive many times faster than the machine runs them, so the wait
// queue holds a hundred jobs and more, and the policies' indexes over a long queue (the copy of
// the queue with its blocks, the reservation index, compression's shortcuts) are what decides.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../support/literal_policies.hpp"
#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

// About ten times the work the machine can do: one job every two seconds on average, of four
// nodes (of up to `small_nodes` four times in five) and eighty seconds on average, on 16 nodes. Half the jobs end before their limit, so
// reservations move and shadows change.
std::vector<testing::TraceJob> overloaded_trace(unsigned seed, int machine, int jobs = 200,
                                                int small_nodes = 4) {
  std::mt19937 random(seed);
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  std::vector<testing::TraceJob> trace;
  int submit = 0;
  for (int i = 0; i < jobs; ++i) {
    submit += uniform(0, 4);
    testing::TraceJob t;
    t.job.id = std::to_string(i);
    t.job.submit_time = from_seconds(submit);
    t.job.nodes = uniform(0, 4) == 0 ? uniform(1, machine) : uniform(1, small_nodes);
    t.job.time_limit = from_seconds(uniform(1, 20) * 10);
    t.runtime = uniform(0, 1) == 0 ? from_seconds(uniform(0, 200)) : t.job.time_limit;
    trace.push_back(t);
  }
  return trace;
}

// The most jobs waiting at once, from the submissions and the starts of a replay.
std::size_t peak_waiting(const std::vector<testing::TraceJob>& trace,
                         const testing::ReplayResult& result) {
  std::vector<std::pair<Time, int>> changes;
  for (const testing::TraceJob& t : trace) {
    changes.emplace_back(t.job.submit_time, 1);
    changes.emplace_back(result.start.at(t.job.id), -1);
  }
  std::sort(changes.begin(), changes.end());  // a start before a submission at one instant
  int waiting = 0;
  int peak = 0;
  for (const auto& [time, change] : changes) peak = std::max(peak, waiting += change);
  return static_cast<std::size_t>(peak);
}

std::unique_ptr<Policy> literal_of(const std::string& policy) {
  if (policy == "none") return std::make_unique<testing::LiteralEasyClassic>(false);
  if (policy == "easy") return std::make_unique<testing::LiteralSpecPolicy>(false);
  if (policy == "conservative") return std::make_unique<testing::LiteralSpecPolicy>(true);
  if (policy == "easy-classic") return std::make_unique<testing::LiteralEasyClassic>(true);
  return std::make_unique<testing::LiteralConservativeClassic>();
}

TEST(OverloadedLiteral, EveryPolicyMatchesItsLiteralTranscription) {
  constexpr int kMachine = 16;
  for (const QueueOrder order : {QueueOrder::kFcfs, QueueOrder::kLcfs}) {
    SchedulerOptions options;
    options.order = order;
    for (unsigned seed = 1; seed <= 4; ++seed) {
      const std::vector<testing::TraceJob> trace = overloaded_trace(seed, kMachine);
      for (const std::string policy :
           {"none", "easy", "conservative", "easy-classic", "conservative-classic"}) {
        const testing::ReplayResult literal =
            testing::replay(trace, kMachine, literal_of(policy), options);
        const testing::ReplayResult fast = testing::replay(trace, kMachine, policy, options);
        ASSERT_EQ(fast.start.size(), trace.size()) << policy << " seed " << seed;
        // Long queues, or the indexes would not be tested: well past the copy's blocks.
        EXPECT_GE(peak_waiting(trace, fast), 100u) << policy << " seed " << seed;
        ASSERT_EQ(fast.start, literal.start) << policy << " " << to_string(order) << " seed "
                                             << seed;
      }
    }
  }
}

// Queues of several hundred jobs of every size on a larger machine: compression's searches for
// jobs of different sizes then share the plan's runs read for the power of two below their size
// (src/core/policies/conservative_classic.cpp), each size bounded by runs with fewer nodes free.
TEST(OverloadedLiteral, LongQueuesOfManySizesMatchTheLiteralTranscription) {
  constexpr int kMachine = 64;
  for (unsigned seed = 11; seed <= 12; ++seed) {
    const std::vector<testing::TraceJob> trace = overloaded_trace(seed, kMachine, 600, 24);
    for (const std::string policy :
         {"none", "easy", "conservative", "easy-classic", "conservative-classic"}) {
      const testing::ReplayResult literal =
          testing::replay(trace, kMachine, literal_of(policy), SchedulerOptions{});
      const testing::ReplayResult fast =
          testing::replay(trace, kMachine, policy, SchedulerOptions{});
      ASSERT_EQ(fast.start.size(), trace.size()) << policy << " seed " << seed;
      EXPECT_GE(peak_waiting(trace, fast), 300u) << policy << " seed " << seed;
      ASSERT_EQ(fast.start, literal.start) << policy << " seed " << seed;
    }
  }
}

}  // namespace
}  // namespace batfill
