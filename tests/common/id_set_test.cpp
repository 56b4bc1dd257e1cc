// IdSet: exact membership whatever the spelling, whether an id is a bit or kept as text.

#include <gtest/gtest.h>

#include <string>

#include "batfill/common/id_set.hpp"

namespace batfill {
namespace {

TEST(IdSet, NumberedIdsArePerPrefixAndExact) {
  IdSet ids;
  EXPECT_TRUE(ids.insert("w0!17"));
  EXPECT_FALSE(ids.insert("w0!17"));
  EXPECT_TRUE(ids.contains("w0!17"));
  EXPECT_FALSE(ids.contains("w1!17"));  // another workload
  EXPECT_FALSE(ids.contains("17"));     // no prefix
  EXPECT_FALSE(ids.contains("w0!16"));
  EXPECT_FALSE(ids.contains("w0!1000000"));  // past the table
  EXPECT_TRUE(ids.insert("17"));
  EXPECT_TRUE(ids.contains("17"));
}

TEST(IdSet, OtherSpellingsAreDistinctIds) {
  IdSet ids;
  EXPECT_TRUE(ids.insert("17"));
  EXPECT_TRUE(ids.insert("017"));  // a leading zero: not the number 17
  EXPECT_TRUE(ids.insert("17.0"));
  EXPECT_TRUE(ids.insert("17#2"));
  EXPECT_TRUE(ids.insert("0"));
  EXPECT_TRUE(ids.insert(""));
  EXPECT_TRUE(ids.insert("99999999999"));  // beyond the bit table: kept as text
  EXPECT_TRUE(ids.insert("268435456"));    // 2^28: the first number kept as text
  EXPECT_TRUE(ids.insert("268435455"));    // the last bit
  EXPECT_FALSE(ids.insert("268435456"));
  EXPECT_FALSE(ids.insert("268435455"));
  EXPECT_FALSE(ids.insert("017"));
  EXPECT_FALSE(ids.insert("99999999999"));
  EXPECT_FALSE(ids.insert("0"));
  EXPECT_TRUE(ids.contains("17#2"));
  EXPECT_FALSE(ids.contains("17#3"));
}

}  // namespace
}  // namespace batfill
