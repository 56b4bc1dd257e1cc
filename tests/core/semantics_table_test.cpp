// The small cases of docs/semantics.md#hand-cases, one row per case and one column
// per policy, as in that table (100 nodes unless stated; starts in seconds, in job order).
// Each expectation is copied from that table; the comments re-derive the step that decides it.

#include <gtest/gtest.h>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

using testing::trace_in_seconds;
using testing::TraceJob;

using testing::start_seconds;

struct Case {
  const char* name;
  std::vector<TraceJob> trace;
  std::vector<long> easy;
  std::vector<long> conservative;
  std::vector<long> easy_classic;
  std::vector<long> conservative_classic;
  int nodes = 100;
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }
};

class SemanticsTable : public ::testing::TestWithParam<Case> {
 protected:
  std::vector<long> starts(const char* policy) const {
    return start_seconds(GetParam().trace, policy, GetParam().nodes);
  }
};

TEST_P(SemanticsTable, Easy) { EXPECT_EQ(starts("easy"), GetParam().easy); }
TEST_P(SemanticsTable, Conservative) { EXPECT_EQ(starts("conservative"), GetParam().conservative); }
TEST_P(SemanticsTable, EasyClassic) { EXPECT_EQ(starts("easy-classic"), GetParam().easy_classic); }
TEST_P(SemanticsTable, ConservativeClassic) {
  EXPECT_EQ(starts("conservative-classic"), GetParam().conservative_classic);
}

INSTANTIATE_TEST_SUITE_P(
    HandCases, SemanticsTable,
    ::testing::Values(
        // The spec's "Complete Example Trace": job 2 backfills at 20 since 20+50=70 < 200.
        Case{"spec_trace",
             trace_in_seconds({{0, 70, 200}, {10, 50, 300}, {20, 20, 50}}),
             {0, 200, 20},
             {0, 200, 20},
             {0, 200, 20},
             {0, 200, 20}},
        // The spec's conservative example. Spec: job 4 (15 nodes) fits now, so its shadow is 0
        // and pins the window of job 5 to now; EASY only protects job 2 (reservation 50 > 0+40).
        // easy-classic at 0: head 2 (50 nodes) has shadow 50 with 80 free then, so 30 extra.
        // Job 3 (30) does not fit in the 20 free now; job 4 (15, ends 100 > 50) takes 15 extra;
        // job 5 (10) no longer fits in the 5 free. At 50 job 2 starts; head 3 has shadow 100
        // and job 5 (ends 90 <= 100) backfills. conservative-classic plans job 3 into [50,100)
        // beside job 2, pushes job 4 to 100 and fits job 5 into [0,40).
        Case{"spec_conservative_example",
             trace_in_seconds(
                 {{0, 60, 50}, {0, 20, 100}, {0, 50, 200}, {0, 30, 50}, {0, 15, 100}, {0, 10, 40}}),
             {0, 0, 50, 50, 100, 0},
             {0, 0, 50, 50, 100, 100},
             {0, 0, 50, 100, 0, 50},
             {0, 0, 50, 50, 100, 0}},
        // Spec: 20+150 = 170 is not before the reservation at 100. Classic: job 2 (20 nodes)
        // fits within the 30 + 70 - 45 = 55 extra nodes.
        Case{"blocked_by_time",
             trace_in_seconds({{0, 70, 100}, {10, 45, 200}, {20, 20, 150}}),
             {0, 100, 100},
             {0, 100, 100},
             {0, 100, 20},
             {0, 100, 20}},
        // Job 0 ends at 50 instead of 200: the head starts at the early completion.
        Case{"early_completion",
             trace_in_seconds({{0, 70, 200, 50}, {10, 50, 300}, {20, 20, 100}}),
             {0, 50, 20},
             {0, 50, 20},
             {0, 50, 20},
             {0, 50, 20}},
        // Job 2 would end exactly at the reservation (0+100 = 100): the spec's strict < refuses
        // it, the classic rules' <= accept it.
        Case{"strict_less_than",
             trace_in_seconds({{0, 60, 100}, {0, 80, 100}, {0, 40, 100}}),
             {0, 100, 200},
             {0, 100, 200},
             {0, 100, 0},
             {0, 100, 0}},
        // No extra-nodes rule in the spec: job 2 fits beside the head but ends after 100. The
        // classic rules let it run past 100 on the 100 - 50 = 50 extra nodes.
        Case{"extra_nodes",
             trace_in_seconds({{0, 60, 100}, {0, 50, 100}, {0, 30, 500}}),
             {0, 100, 100},
             {0, 100, 100},
             {0, 100, 0},
             {0, 100, 0}},
        // Classic: job 3 (40 nodes, ends 150) fills the hole beside job 1 in [100,200).
        Case{"holes",
             trace_in_seconds({{0, 50, 100}, {0, 60, 100}, {0, 60, 100}, {0, 40, 150}}),
             {0, 100, 200, 200},
             {0, 100, 200, 200},
             {0, 100, 200, 0},
             {0, 100, 200, 0}},
        // Fails if the two completions at 100 are handled one at a time.
        Case{"batching_10_nodes",
             trace_in_seconds({{0, 3, 100}, {0, 3, 100}, {0, 3, 300}, {1, 7, 100}, {2, 4, 100}}),
             {0, 0, 0, 100, 200},
             {0, 0, 0, 100, 200},
             {0, 0, 0, 100, 200},
             {0, 0, 0, 100, 200},
             10}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace batfill
