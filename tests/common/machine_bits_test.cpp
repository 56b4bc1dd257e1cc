// MachineBits: a range of ids is visited as whole words, whatever its alignment.

#include <gtest/gtest.h>

#include <vector>

#include "batfill/common/machine_bits.hpp"

namespace batfill {
namespace {

// Sets first..last and returns which ids are set.
std::vector<int> set_range(int size, int first, int last) {
  MachineBits bits(size);
  bits.for_each_word(first, last, [&](std::size_t w, MachineBits::Word mask) {
    EXPECT_EQ(bits.word(w) & mask, 0u) << "a word visited twice";
    bits.word(w) |= mask;
  });
  std::vector<int> ids;
  for (int id = 0; id < bits.size(); ++id) {
    if (bits.test(id)) ids.push_back(id);
  }
  return ids;
}

std::vector<int> ids_from(int first, int last) {
  std::vector<int> ids;
  for (int id = first; id <= last; ++id) ids.push_back(id);
  return ids;
}

TEST(MachineBits, RangesWithinAndAcrossWords) {
  EXPECT_EQ(set_range(200, 3, 3), ids_from(3, 3));
  EXPECT_EQ(set_range(200, 0, 63), ids_from(0, 63));         // one whole word
  EXPECT_EQ(set_range(200, 60, 70), ids_from(60, 70));       // across a boundary
  EXPECT_EQ(set_range(200, 63, 128), ids_from(63, 128));     // three words
  EXPECT_EQ(set_range(200, 0, 199), ids_from(0, 199));       // everything
  EXPECT_EQ(set_range(200, 190, 1000), ids_from(190, 199));  // clipped to the size
  EXPECT_EQ(set_range(200, -5, 2), ids_from(0, 2));
  EXPECT_TRUE(set_range(200, 5, 4).empty());
  EXPECT_TRUE(set_range(0, 0, 10).empty());
}

TEST(MachineBits, CountsBits) {
  EXPECT_EQ(MachineBits::count(0), 0);
  EXPECT_EQ(MachineBits::count(~MachineBits::Word{0}), 64);
  EXPECT_EQ(MachineBits::count(0b1011), 3);
}

}  // namespace
}  // namespace batfill
