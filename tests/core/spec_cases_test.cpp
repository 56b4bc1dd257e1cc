// The small cases of ../shared/notes/scheduling-semantics.md §5 for the spec's policies, plus the
// spec's own worked examples (seeds/000). Each expectation is copied from the notes' table,
// whose rows were derived by hand from the spec's rules; the comments re-derive the key step.

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
  const testing::ReplayResult result = testing::replay(trace, nodes, policy);
  std::vector<long> seconds;
  for (const TraceJob& t : trace) seconds.push_back(static_cast<long>(result.start.at(t.job.id) / kMicrosecondsPerSecond));
  return seconds;
}

struct Case {
  const char* name;
  std::vector<TraceJob> trace;
  std::vector<long> easy;
  std::vector<long> conservative;
  int nodes = 100;
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }
};

class SpecCases : public ::testing::TestWithParam<Case> {};

TEST_P(SpecCases, EasyStartsAsInNotes) {
  EXPECT_EQ(starts(GetParam().trace, "easy", GetParam().nodes), GetParam().easy);
}

TEST_P(SpecCases, ConservativeStartsAsInNotes) {
  EXPECT_EQ(starts(GetParam().trace, "conservative", GetParam().nodes), GetParam().conservative);
}

INSTANTIATE_TEST_SUITE_P(
    NotesSection5, SpecCases,
    ::testing::Values(
        // The spec's "Complete Example Trace": job 2 backfills at 20 since 20+50=70 < 200.
        Case{"spec_trace", jobs({{0, 70, 200}, {10, 50, 300}, {20, 20, 50}}), {0, 200, 20},
             {0, 200, 20}},
        // The spec's conservative example: job 4 (15 nodes) fits now, so its shadow is 0 and
        // pins the window of job 5 to now; EASY only protects job 2 (reservation 50 > 0+40).
        Case{"spec_conservative_example",
             jobs({{0, 60, 50}, {0, 20, 100}, {0, 50, 200}, {0, 30, 50}, {0, 15, 100}, {0, 10, 40}}),
             {0, 0, 50, 50, 100, 0},
             {0, 0, 50, 50, 100, 100}},
        // 20+150 = 170 is not before the reservation at 100.
        Case{"blocked_by_time", jobs({{0, 70, 100}, {10, 45, 200}, {20, 20, 150}}), {0, 100, 100},
             {0, 100, 100}},
        // Job 0 ends at 50 instead of 200: the head starts at the early completion.
        Case{"early_completion", jobs({{0, 70, 200, 50}, {10, 50, 300}, {20, 20, 100}}),
             {0, 50, 20}, {0, 50, 20}},
        // Job 2 would end exactly at the reservation (0+100 = 100): strict < refuses it.
        Case{"strict_less_than", jobs({{0, 60, 100}, {0, 80, 100}, {0, 40, 100}}), {0, 100, 200},
             {0, 100, 200}},
        // No extra-nodes rule in the spec: job 2 fits beside the head but ends after 100.
        Case{"extra_nodes", jobs({{0, 60, 100}, {0, 50, 100}, {0, 30, 500}}), {0, 100, 100},
             {0, 100, 100}},
        Case{"holes", jobs({{0, 50, 100}, {0, 60, 100}, {0, 60, 100}, {0, 40, 150}}),
             {0, 100, 200, 200}, {0, 100, 200, 200}},
        // Fails if the two completions at 100 are handled one at a time.
        Case{"batching_10_nodes",
             jobs({{0, 3, 100}, {0, 3, 100}, {0, 3, 300}, {1, 7, 100}, {2, 4, 100}}),
             {0, 0, 0, 100, 200}, {0, 0, 0, 100, 200}, 10}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

// Spec, "Backfilling Example": A (60 nodes) runs until 200; B (50) arrives at 50 and is blocked;
// D (20 nodes, limit 100) and E (15, limit 70) backfill at 50 (150 < 200, 120 < 200); C (30)
// does not fit in the 5 nodes left. The spec lists C before D and E yet has them take the space
// first, so here C arrives just after them (at 60). At 200, A ends: B starts, and C, now the
// head, fits in the 50 nodes left and starts too (step 1 cascade).
TEST(SpecExamples, EasyBackfillingExample) {
  std::vector<TraceJob> trace = jobs({{0, 60, 200}, {50, 50, 100}, {50, 20, 100}, {50, 15, 70},
                                      {60, 30, 100}});
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
    EXPECT_NE(result.rejected.at("0").find("101 nodes"), std::string::npos);
    EXPECT_EQ(result.start.at("2"), 0) << policy;
  }
}

TEST(Rejection, BackfillingNeedsTimeLimitsFcfsDoesNot) {
  std::vector<TraceJob> trace = jobs({{0, 10, 10}});
  trace[0].job.time_limit = kNoTimeLimit;
  EXPECT_EQ(testing::replay(trace, 100, "easy").rejected.count("0"), 1u);
  EXPECT_EQ(testing::replay(trace, 100, "conservative").rejected.count("0"), 1u);
  EXPECT_EQ(testing::replay(trace, 100, "none").start.at("0"), 0);
}

}  // namespace
}  // namespace batfill
