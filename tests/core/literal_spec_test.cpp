// Independent checks. Of the spec policies: a literal, quadratic transcription of the spec's
// pseudo-code ("Step 1/2/3" of EASY and CONSERVATIVE,
// docs/semantics.md#easy--the-specs-easy–docs/semantics.md#conservative--the-specs-conservative,
// with the reading that a job fitting in the free nodes now has shadow = now) against batfill's
// near-linear policies, on hundreds of random workloads. Same start times for every job, or the
// fast path is wrong.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <utility>

#include "../support/instant_replay.hpp"
#include "../support/literal_policies.hpp"

namespace batfill {
namespace {

using testing::LiteralConservativeClassic;
using testing::LiteralSpecPolicy;

std::vector<testing::TraceJob> random_trace(unsigned seed, int machine) {
  std::mt19937 random(seed);
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  std::vector<testing::TraceJob> trace;
  const int jobs = uniform(10, 60);
  int submit = 0;
  for (int i = 0; i < jobs; ++i) {
    submit += uniform(0, 3) == 0 ? 0 : uniform(0, 40);  // many ties at one instant
    testing::TraceJob t;
    t.job.id = std::to_string(i);
    t.job.submit_time = from_seconds(submit);
    t.job.nodes = uniform(1, machine);
    t.job.time_limit = from_seconds(uniform(1, 20) * 10);  // coarse limits: equal ends are common
    t.runtime = uniform(0, 2) == 0 ? from_seconds(uniform(0, 200)) : t.job.time_limit;
    trace.push_back(t);
  }
  return trace;
}

TEST(LiteralSpec, FastPoliciesMatchTheLiteralPseudoCode) {
  constexpr int kMachine = 16;
  int differing = 0;
  for (unsigned seed = 1; seed <= 400; ++seed) {
    const std::vector<testing::TraceJob> trace = random_trace(seed, kMachine);
    for (const bool conservative : {false, true}) {
      const testing::ReplayResult literal =
          testing::replay(trace, kMachine, std::make_unique<LiteralSpecPolicy>(conservative));
      const testing::ReplayResult fast =
          testing::replay(trace, kMachine, conservative ? "conservative" : "easy");
      EXPECT_EQ(fast.start, literal.start)
          << (conservative ? "conservative" : "easy") << " seed " << seed;
      differing += fast.start != literal.start;
    }
  }
  EXPECT_EQ(differing, 0);
}

// The same under queue orders that insert new jobs before waiting ones or sort the queue again
// at every pass: the conservative policy's copy of the queue, kept between passes, must follow.
TEST(LiteralSpec, FastConservativeMatchesTheLiteralPseudoCodeUnderReorderingQueues) {
  constexpr int kMachine = 16;
  for (const QueueOrder order :
       {QueueOrder::kLcfs, QueueOrder::kAscSize, QueueOrder::kDescSlowdown}) {
    SchedulerOptions options;
    options.order = order;
    for (unsigned seed = 1; seed <= 100; ++seed) {
      const std::vector<testing::TraceJob> trace = random_trace(seed, kMachine);
      const testing::ReplayResult literal =
          testing::replay(trace, kMachine, std::make_unique<LiteralSpecPolicy>(true), options);
      const testing::ReplayResult fast = testing::replay(trace, kMachine, "conservative", options);
      ASSERT_EQ(fast.start, literal.start) << to_string(order) << " seed " << seed;
    }
  }
}

TEST(LiteralConservativeClassic, PolicyMatchesTheLiteralRulesUnderEveryQueueOrder) {
  constexpr int kMachine = 16;
  for (const QueueOrder order :
       {QueueOrder::kFcfs, QueueOrder::kLcfs, QueueOrder::kAscSize, QueueOrder::kDescSlowdown}) {
    SchedulerOptions options;
    options.order = order;
    for (unsigned seed = 1; seed <= 200; ++seed) {
      const std::vector<testing::TraceJob> trace = random_trace(seed, kMachine);
      const testing::ReplayResult literal =
          testing::replay(trace, kMachine, std::make_unique<LiteralConservativeClassic>(), options);
      const testing::ReplayResult policy =
          testing::replay(trace, kMachine, "conservative-classic", options);
      ASSERT_EQ(policy.start, literal.start) << to_string(order) << " seed " << seed;
    }
  }
}

// The check above must be able to fail: the literal EASY and CONSERVATIVE differ on some of
// these workloads (so the comparison distinguishes the two policies).
TEST(LiteralSpec, TheTwoLiteralPoliciesDifferOnSomeWorkloads) {
  int differ = 0;
  for (unsigned seed = 1; seed <= 400; ++seed) {
    const std::vector<testing::TraceJob> trace = random_trace(seed, 16);
    differ += testing::replay(trace, 16, std::make_unique<LiteralSpecPolicy>(false)).start !=
              testing::replay(trace, 16, std::make_unique<LiteralSpecPolicy>(true)).start;
  }
  EXPECT_GT(differ, 10);
}

}  // namespace
}  // namespace batfill
