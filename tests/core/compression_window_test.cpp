// The compression window of classic conservative backfilling
// (docs/semantics.md#conservative-classic--feitelson--weil-1998): what it gives back and when a
// compression is due, read by hand from the rules in its header.

#include "conservative/compression_window.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace batfill {
namespace {

TEST(CompressionWindow, AnEarlyCompletionGivesBackFromTheNextInstant) {
  CompressionWindow window;
  const auto before = window.version();
  window.advance_to(10);
  window.complete(100);  // planned to end at 100, reported before 40
  EXPECT_TRUE(window.compression_due());
  window.advance_to(40);
  window.check_invariants(40);
  EXPECT_EQ(window.earliest_since(before), 40);
  EXPECT_EQ(window.begin_compression(), 100);
  EXPECT_FALSE(window.compression_due());
  // Nothing given back since it began: the next one has nothing to reach.
  EXPECT_EQ(window.begin_compression(), kBeforeAll);
}

TEST(CompressionWindow, ALateCompletionIsDueButGivesNothingBackNorDoesAnUnknownSlot) {
  CompressionWindow window;
  window.advance_to(10);
  window.release({kNever, kNever, 0}, 10);  // no known start: nothing to give, nothing due
  EXPECT_FALSE(window.compression_due());
  window.complete(30);  // planned to end at 30, reported at 40
  window.advance_to(40);
  EXPECT_TRUE(window.compression_due());
  EXPECT_EQ(window.earliest_since(0), kNever);
  EXPECT_EQ(window.begin_compression(), kBeforeAll);
}

TEST(CompressionWindow, WhatACompressionGivesBackIsForTheNextOne) {
  CompressionWindow window;
  window.advance_to(0);
  window.complete(50);
  window.advance_to(20);
  EXPECT_EQ(window.begin_compression(), 50);
  const auto moved_at = window.version();
  window.give_back({60, 90});  // a reservation moved from [60, 90) to before 60
  window.give_back({70, 80});
  EXPECT_EQ(window.earliest_since(moved_at), 60);
  // A late completion brings the compression its old slots may suit
  // (docs/semantics.md#conservative-classic--feitelson--weil-1998).
  window.complete(20);
  window.advance_to(30);
  EXPECT_TRUE(window.compression_due());
  EXPECT_EQ(window.begin_compression(), 90);
}

TEST(CompressionWindow, AReleasedSlotGivesBackWhatLiesFromNow) {
  CompressionWindow window;
  window.advance_to(40);
  const auto before = window.version();
  window.release({10, 70, before}, 40);  // a due slot, begun before now
  EXPECT_TRUE(window.compression_due());
  EXPECT_EQ(window.earliest_since(before), 40);
  EXPECT_EQ(window.begin_compression(), 70);
  window.check_invariants(40);
}

TEST(CompressionWindow, CapacityFreedBeforeTheInstantBreaksTheInvariantUntilMerged) {
  CompressionWindow window;
  window.advance_to(10);
  window.give_back({20, 30});
  window.check_invariants(10);
  EXPECT_THROW(window.check_invariants(25), std::logic_error);
  window.advance_to(25);  // the past becomes the instant
  window.check_invariants(25);
  EXPECT_EQ(window.earliest_since(0), 25);
}

}  // namespace
}  // namespace batfill
