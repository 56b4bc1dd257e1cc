// The position tree against a plain scan, and the profile's most_free against free_at.

#include "conservative/position_tree.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <functional>
#include <random>
#include <vector>

#include "batfill/core/availability_profile.hpp"

namespace batfill {
namespace {

using Smallest = PositionTree<int, std::less<int>>;
using Largest = PositionTree<int, std::greater<int>>;

TEST(PositionTree, FindsTheFirstQualifyingPositionAndPrefixBestLikeAScan) {
  std::mt19937 random(7);
  Smallest smallest(INT_MAX);
  Largest largest(INT_MIN);
  std::vector<int> values;
  for (int round = 0; round < 3000; ++round) {
    // Mostly updates of known positions, sometimes one past the end (the tree grows).
    const std::size_t position =
        values.empty() || random() % 8 == 0 ? values.size() : random() % values.size();
    const int value = static_cast<int>(random() % 50);
    if (position == values.size()) values.push_back(INT_MAX);
    values[position] = value;
    smallest.set(position, value);
    largest.set(position, value);
    const std::size_t from = random() % (values.size() + 2);
    const int bound = static_cast<int>(random() % 50);
    std::size_t expected = Smallest::kNone;
    for (std::size_t p = from; p < values.size(); ++p) {
      if (values[p] <= bound) {
        expected = p;
        break;
      }
    }
    ASSERT_EQ(smallest.first_from(from, bound), expected) << "round " << round;
    int best = INT_MIN;
    for (std::size_t p = 0; p < std::min(from, values.size()); ++p)
      best = std::max(best, values[p]);
    ASSERT_EQ(largest.best_before(from), best) << "round " << round;
  }
  smallest.clear();
  EXPECT_EQ(smallest.first_from(0, INT_MAX - 1), Smallest::kNone);
}

TEST(AvailabilityProfile, MostFreeIsTheLargestStepMetByTheInterval) {
  AvailabilityProfile profile(10, 0);
  profile.reserve(0, 100, 6);    // 4 free in [0,100)
  profile.reserve(100, 200, 9);  // 1 free in [100,200)
  profile.reserve(300, 400, 2);  // 8 free in [300,400)
  EXPECT_EQ(profile.most_free(0, 100), 4);
  EXPECT_EQ(profile.most_free(50, 150), 4);
  EXPECT_EQ(profile.most_free(100, 200), 1);
  EXPECT_EQ(profile.most_free(150, 250), 10);  // [200,300) is free
  EXPECT_EQ(profile.most_free(350, 360), 8);
  EXPECT_EQ(profile.most_free(100, 100), INT_MIN);  // empty
}

}  // namespace
}  // namespace batfill
