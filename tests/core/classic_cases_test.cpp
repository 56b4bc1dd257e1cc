// The cases of ../shared/notes/scheduling-semantics.md §5 for the classic policies (the
// easy-classic and conservative-classic columns; the spec's columns are in spec_cases_test).
// Each expectation is copied from the notes' table; the comments re-derive the step where the
// classic rules differ from the spec's.

#include <gtest/gtest.h>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

using testing::trace_in_seconds;
using testing::TraceJob;

std::vector<long> start_seconds(const std::vector<TraceJob>& trace, const std::string& policy,
                                int nodes) {
  const testing::ReplayResult result = testing::replay(trace, nodes, policy);
  std::vector<long> seconds;
  for (const TraceJob& t : trace) {
    seconds.push_back(static_cast<long>(result.start.at(t.job.id) / kMicrosecondsPerSecond));
  }
  return seconds;
}

struct Case {
  const char* name;
  std::vector<TraceJob> trace;
  std::vector<long> easy_classic;
  std::vector<long> conservative_classic;
  int nodes = 100;
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }
};

class ClassicCases : public ::testing::TestWithParam<Case> {};

TEST_P(ClassicCases, EasyClassicStartsAsInNotes) {
  EXPECT_EQ(start_seconds(GetParam().trace, "easy-classic", GetParam().nodes),
            GetParam().easy_classic);
}

TEST_P(ClassicCases, ConservativeClassicStartsAsInNotes) {
  EXPECT_EQ(start_seconds(GetParam().trace, "conservative-classic", GetParam().nodes),
            GetParam().conservative_classic);
}

INSTANTIATE_TEST_SUITE_P(
    NotesSection5, ClassicCases,
    ::testing::Values(
        Case{"spec_trace", trace_in_seconds({{0, 70, 200}, {10, 50, 300}, {20, 20, 50}}),
             {0, 200, 20}, {0, 200, 20}},
        // easy-classic at 0: head 2 (50 nodes) has shadow 50 with 80 free then, so 30 extra.
        // Job 3 (30) does not fit in the 20 free now; job 4 (15, ends 100 > 50) takes 15 extra;
        // job 5 (10) no longer fits in the 5 free. At 50 job 2 starts; head 3 has shadow 100
        // and job 5 (ends 90 <= 100) backfills. conservative-classic plans job 3 into [50,100)
        // beside job 2, pushes job 4 to 100 and fits job 5 into [0,40).
        Case{"spec_conservative_example",
             trace_in_seconds({{0, 60, 50}, {0, 20, 100}, {0, 50, 200}, {0, 30, 50}, {0, 15, 100},
                               {0, 10, 40}}),
             {0, 0, 50, 100, 0, 50}, {0, 0, 50, 50, 100, 0}},
        // Job 2 (20 nodes, ends 170 > 100) fits within the 30 + 70 - 45 = 55 extra nodes.
        Case{"blocked_by_time", trace_in_seconds({{0, 70, 100}, {10, 45, 200}, {20, 20, 150}}),
             {0, 100, 20}, {0, 100, 20}},
        Case{"early_completion",
             trace_in_seconds({{0, 70, 200, 50}, {10, 50, 300}, {20, 20, 100}}), {0, 50, 20},
             {0, 50, 20}},
        // Job 2 ends exactly at the reservation: classic rules accept `<=`.
        Case{"strict_less_than", trace_in_seconds({{0, 60, 100}, {0, 80, 100}, {0, 40, 100}}),
             {0, 100, 0}, {0, 100, 0}},
        // Job 2 (30 nodes) runs past 100 but 100 - 50 = 50 extra nodes remain then.
        Case{"extra_nodes", trace_in_seconds({{0, 60, 100}, {0, 50, 100}, {0, 30, 500}}),
             {0, 100, 0}, {0, 100, 0}},
        // Job 3 (40 nodes, ends 150) fills the hole beside job 1 in [100,200).
        Case{"holes",
             trace_in_seconds({{0, 50, 100}, {0, 60, 100}, {0, 60, 100}, {0, 40, 150}}),
             {0, 100, 200, 0}, {0, 100, 200, 0}},
        Case{"batching_10_nodes",
             trace_in_seconds({{0, 3, 100}, {0, 3, 100}, {0, 3, 300}, {1, 7, 100}, {2, 4, 100}}),
             {0, 0, 0, 100, 200}, {0, 0, 0, 100, 200}, 10}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

// Hand derivation, 10 nodes. At 0: job 0 (6 nodes) runs [0,100), job 1 (4) runs [0,50), job 2
// (10) is planned at [100,200). At 10: job 3 (4 nodes, 50 s) gets [50,100) beside job 0.
// At 20 job 0 ends early and compression runs in queue order: job 2 still finds no 10 free
// nodes before 100 (job 1 until 50, job 3 in [50,100)) and stays; job 3 moves to 20 and starts.
// At 50 job 1 ends: compression moves job 2 to 70, when job 3 (ends 70) has gone.
// A rebuild from scratch at 20 would instead plan job 2 at 50 and push job 3 from 50 to 150.
TEST(ConservativeClassic, CompressionKeepsOtherReservationsInPlace) {
  std::vector<TraceJob> trace =
      trace_in_seconds({{0, 6, 100, 20}, {0, 4, 50}, {0, 10, 100}, {10, 4, 50}});
  const testing::ReplayResult result = testing::replay(trace, 10, "conservative-classic");
  EXPECT_EQ(result.start.at("3"), from_seconds(20));
  EXPECT_EQ(result.start.at("2"), from_seconds(70));
}

// notes §4: "a job may end exactly when another's reservation starts". 10 nodes: job 0 (5)
// runs [0,100), job 1 (10) is planned at [100,150). Job 2 (5 nodes) fills [0,100) with a
// 100 s limit; one second more and the hole is too short, so it goes after job 1, at 150.
TEST(ConservativeClassic, SlotMayEndWhereAnotherBegins) {
  const auto fits = trace_in_seconds({{0, 5, 100}, {0, 10, 50}, {0, 5, 100}});
  EXPECT_EQ(testing::replay(fits, 10, "conservative-classic").start.at("2"), 0);
  const auto too_long = trace_in_seconds({{0, 5, 100}, {0, 10, 50}, {0, 5, 101}});
  EXPECT_EQ(testing::replay(too_long, 10, "conservative-classic").start.at("2"),
            from_seconds(150));
}

// easy-classic, 10 nodes: job 0 (6 nodes) runs [0,100), head job 1 needs 8, shadow 100 with
// 10 free then: 2 extra nodes. Job 2 (2 nodes, 500 s) uses them; job 3 (2 nodes, 500 s) then
// fits now (2 free) but has no extra nodes left and ends after 100, so it waits for job 1.
TEST(EasyClassic, RunningPastTheShadowUsesUpExtraNodes) {
  const auto trace = trace_in_seconds({{0, 6, 100}, {0, 8, 100}, {0, 2, 500}, {0, 2, 500}});
  const testing::ReplayResult result = testing::replay(trace, 10, "easy-classic");
  EXPECT_EQ(result.start.at("2"), 0);
  EXPECT_EQ(result.start.at("1"), from_seconds(100));
  EXPECT_EQ(result.start.at("3"), from_seconds(200));
}

}  // namespace
}  // namespace batfill
