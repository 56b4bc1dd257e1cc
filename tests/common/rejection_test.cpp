// A rejection's text, as the log and the workload's warnings print it; each part appears only
// when present, in the forms docs/semantics.md#invalid-records describes.

#include <gtest/gtest.h>

#include "batfill/common/rejection.hpp"

namespace batfill {
namespace {

// The whole text, as the log and the workload's warnings print it: each part only when present.
TEST(Rejection, TextJoinsThePartsPresent) {
  EXPECT_EQ((Rejection{"t.swf:4", "", "a; b"}).text(), "t.swf:4: a; b");
  EXPECT_EQ((Rejection{"w.json:3: jobs[2]", "", "x"}).text(), "w.json:3: jobs[2]: x");
  EXPECT_EQ((Rejection{"", "w0!3", "requests 9 nodes"}).text(), "job 'w0!3' requests 9 nodes");
  EXPECT_EQ((Rejection{"t.swf:4", "3", "uses unknown profile 'p'"}).text(),
            "t.swf:4: job '3' uses unknown profile 'p'");
  EXPECT_EQ((Rejection{"", "", "rejected by the decision process"}).text(),
            "rejected by the decision process");
  EXPECT_TRUE(Rejection{}.empty());
  EXPECT_FALSE((Rejection{"", "", "x"}).empty());
  EXPECT_TRUE((Rejection{"", "", ""}).empty());
}

// A record's further problems join its reason; its position stays
// (docs/semantics.md#invalid-records).
TEST(Rejection, FurtherProblemsJoinTheReason) {
  Rejection rejection;
  rejection.add_problem("t.swf:4", "a");
  EXPECT_EQ(rejection.text(), "t.swf:4: a");
  rejection.add_problem("t.swf:4", "b");
  EXPECT_EQ(rejection.position(), "t.swf:4");
  EXPECT_EQ(rejection.why(), "a; b");
}

// Records are copied (a workload job into its record): a copy holds its own parts.
TEST(Rejection, ACopyIsIndependent) {
  Rejection original{"t.swf:4", "3", "a"};
  Rejection copy = original;
  copy.add_problem("t.swf:4", "b");
  EXPECT_EQ(original.why(), "a");
  EXPECT_EQ(copy.text(), "t.swf:4: job '3' a; b");
  copy = Rejection{};
  EXPECT_TRUE(copy.empty());
  EXPECT_EQ(copy.why(), "");
  copy = original;
  EXPECT_EQ(copy.text(), original.text());
  original.clear();
  EXPECT_TRUE(original.empty());
  EXPECT_EQ(copy.why(), "a");
}

}  // namespace
}  // namespace batfill
