// The spec's own worked examples (docs/semantics.md#edge-cases) and its rejection rules
// (docs/semantics.md#rejection-at-submission); the table of docs/semantics.md#hand-cases is in
// semantics_table_test.cpp. Each expectation is derived by hand from the spec's rules.

#include <gtest/gtest.h>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

using testing::TraceJob;

// (submit, nodes, time_limit[, runtime]) in seconds; ids are "0", "1", ... in order.
std::vector<TraceJob> jobs(std::initializer_list<std::vector<int>> rows) {
  return testing::trace_in_seconds(rows);
}

std::vector<long> starts(const std::vector<TraceJob>& trace, const std::string& policy,
                         int nodes = 100) {
  return testing::start_seconds(trace, policy, nodes);
}

// Spec, "Backfilling Example": A (60 nodes) runs until 200; B (50) arrives at 50 and is blocked;
// D (20 nodes, limit 100) and E (15, limit 70) backfill at 50 (150 < 200, 120 < 200); C (30)
// does not fit in the 5 nodes left. The spec lists C before D and E yet has them take the space
// first, so here C arrives just after them (at 60). At 200, A ends: B starts, and C, now the
// head, fits in the 50 nodes left and starts too (step 1 cascade).
TEST(SpecExamples, EasyBackfillingExample) {
  std::vector<TraceJob> trace =
      jobs({{0, 60, 200}, {50, 50, 100}, {50, 20, 100}, {50, 15, 70}, {60, 30, 100}});
  EXPECT_EQ(starts(trace, "easy"), (std::vector<long>{0, 200, 50, 50, 200}));
}

// Spec, edge case 2: running A (30 nodes, ends 100) and B (40, ends 200), 30 free, head needs 70:
// the reservation is 200, so a 30-node job with limit 150 (ends 150 < 200) backfills, while one
// with limit 200 (ends exactly 200) does not.
TEST(SpecExamples, ReservationNeedsSeveralJobs) {
  std::vector<TraceJob> trace =
      jobs({{0, 30, 100}, {0, 40, 200}, {1, 70, 10}, {1, 30, 149}, {2, 30, 10}});
  const std::vector<long> easy = starts(trace, "easy");
  EXPECT_EQ(easy[3], 1);    // 1 + 149 = 150 < 200
  EXPECT_EQ(easy[2], 200);  // head waits for both A and B
}

TEST(Rejection, ImpossibleJobsNeverBlockTheQueue) {
  std::vector<TraceJob> trace = jobs({{0, 101, 10}, {0, 0, 10}, {0, 100, 10}});
  for (const char* policy : {"easy", "conservative", "none"}) {
    const testing::ReplayResult result = testing::replay(trace, 100, policy);
    EXPECT_EQ(result.rejected.size(), 2u) << policy;
    EXPECT_NE(result.rejected.at("0").why().find("101 nodes"), std::string::npos);
    EXPECT_EQ(result.start.at("2"), 0) << policy;
  }
}

// Jobs without a limit run under every policy (docs/semantics.md#queues---queues): alone, the job
// starts at once.
TEST(Rejection, NoPolicyNeedsTimeLimits) {
  std::vector<TraceJob> trace = jobs({{0, 10, 10}});
  trace[0].job.time_limit = kNoTimeLimit;
  for (const PolicyInfo& policy : registered_policies()) {
    if (policy.name == "rejecter") continue;  // it starts no job at all
    EXPECT_EQ(testing::replay(trace, 100, policy.name).start.at("0"), 0) << policy.name;
  }
}

}  // namespace
}  // namespace batfill
