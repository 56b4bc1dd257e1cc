// Time: conversions at the edges of the range (docs/semantics.md#time). Expected values are
// derived by hand in the comments: powers of two, and doubles whose exact value is known.

#include "batfill/common/time.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace batfill {
namespace {

// The largest double of seconds within kMaxTime: 2^125 - 1 µs is
// 42535295865117307932921825928971.026431 s, which lies between the doubles 0x1.0c6f7a0b5ed8dp+105
// (42535295865117306008119373987840 s) and 0x1.0c6f7a0b5ed8ep+105 (...315015318628728832 s).
constexpr double kLargestSeconds = 0x1.0c6f7a0b5ed8dp+105;

TEST(TimeConversion, BatsimsLongWorkloadTimesAreExact) {
  // test_long_workload.json submits at 1e13 ... 1e17 s; all these doubles are whole seconds.
  EXPECT_EQ(from_fractional_seconds(1e13), from_seconds(10'000'000'000'000));
  EXPECT_EQ(from_fractional_seconds(1e17), from_seconds(100'000'000'000'000'000));
  // 1e17 + 16 s is the next double after 1e17 (a resolution of 2^4 s from 2^56 s).
  EXPECT_EQ(from_fractional_seconds(100000000000000016.0), from_seconds(100'000'000'000'000'016));
  // The double product 1e17 * 1e6 is 99999999999999991611392: not what the conversion gives.
  EXPECT_EQ(format_seconds(from_fractional_seconds(1e17)), "100000000000000000.000000");
}

TEST(TimeConversion, RangeEndsAtTheLargestDoubleWithinKMaxTime) {
  const Time largest = (Time{0x10c6f7a0b5ed8d} << 53) * kMicrosecondsPerSecond;
  EXPECT_EQ(from_fractional_seconds(kLargestSeconds), largest);
  EXPECT_EQ(from_fractional_seconds(-kLargestSeconds), -largest);
  EXPECT_LE(largest, kMaxTime);
  const double beyond = std::nextafter(kLargestSeconds, INFINITY);
  EXPECT_THROW(from_fractional_seconds(beyond), std::out_of_range);
  EXPECT_THROW(from_fractional_seconds(-beyond), std::out_of_range);
  EXPECT_THROW(from_fractional_seconds(1e308), std::out_of_range);
  EXPECT_THROW(from_fractional_seconds(std::nan("")), std::out_of_range);
  EXPECT_THROW(from_fractional_seconds(INFINITY), std::out_of_range);
  EXPECT_THROW(from_fractional_seconds(-INFINITY), std::out_of_range);
}

TEST(TimeConversion, OutOfRangeNamesTheValue) {
  try {
    from_fractional_seconds(1e32);
    ADD_FAILURE() << "1e32 s accepted";
  } catch (const std::out_of_range& error) {
    // The double 1e32 is 100000000000000005366162204393472 exactly; printed with 6 decimals.
    EXPECT_EQ(std::string(error.what()),
              "time value out of range: 100000000000000005366162204393472.000000 s (batfill's "
              "times lie within ±4.25e31 s)");
  }
}

TEST(TimeConversion, OrdinaryValuesRoundToTheNearestMicrosecond) {
  EXPECT_EQ(from_fractional_seconds(20.2), 20'200'000);
  EXPECT_EQ(from_fractional_seconds(12.00045), 12'000'450);
  EXPECT_EQ(from_fractional_seconds(-12.00045), -12'000'450);
  EXPECT_EQ(from_fractional_seconds(4.6e12), 4'600'000'000'000'000'000);
  EXPECT_EQ(from_fractional_seconds(-4.6e12), -4'600'000'000'000'000'000);
  EXPECT_EQ(from_fractional_seconds(0.0), 0);
  EXPECT_EQ(from_fractional_seconds(-0.0), 0);
  EXPECT_EQ(from_fractional_seconds(4.9e-324), 0);  // the smallest subnormal
  // 2^-7 s is 7812.5 µs exactly: halves go away from zero.
  EXPECT_EQ(from_fractional_seconds(0x1p-7), 7813);
  EXPECT_EQ(from_fractional_seconds(-0x1p-7), -7813);
}

TEST(TimeConversion, TheExactValueIsRoundedNotADoubleProduct) {
  // 4e12 s has a resolution of 2^-11 s = 488.28125 µs: 4e12 + 2^-11 s is 4e18 + 488.28125 µs,
  // so 4e18 + 488 µs. The double product (4e12 + 2^-11) * 1e6 rounds to a multiple of 512.
  EXPECT_EQ(from_fractional_seconds(4e12 + 0x1p-11), 4'000'000'000'000'000'488);
  // The double nearest 5e-7 is 4.99999999999999977e-7 s, just below half a microsecond, as
  // printf("%f") rounds it too (0.000000); the double product 5e-7 * 1e6 is exactly 0.5.
  EXPECT_EQ(from_fractional_seconds(5e-7), 0);
  // 2^40 + 1 s, a whole number whose product by 10^6 needs 54 bits.
  EXPECT_EQ(from_fractional_seconds(1099511627777.0), from_seconds(1'099'511'627'777));
}

// Every time a real Batsim 4.2.1 can send is printf("%f") of a double below 10^23 s (a 32-byte
// buffer; docs/semantics.md#time). Read back (nearest double, then microseconds) and written
// again, it is the same text, but for a double whose exact value ends in half a microsecond:
// printf rounds those to even, batfill away from zero.
TEST(TimeConversion, EveryBatsimTextReadsBackToItself) {
  std::mt19937_64 random(42);
  std::uniform_int_distribution<int> exponent(-20, 76);  // 2^76 s is about 7.6e22 s
  char text[64];
  int ties = 0;
  for (int i = 0; i < 200'000; ++i) {
    const double mantissa = 1.0 + static_cast<double>(random() >> 12) * 0x1p-52;
    const double seconds = std::ldexp(mantissa, exponent(random));
    std::snprintf(text, sizeof text, "%f", seconds);
    const Time read = from_fractional_seconds(std::strtod(text, nullptr));
    // Exact ties need exactly 7 fractional bits: seconds * 10^6 = k * 7812.5 with k odd.
    const bool tie = std::fmod(seconds * 128, 2) == 1;
    if (tie) {
      // Of the two microseconds around the tie, printf keeps the even one.
      ++ties;
      EXPECT_EQ(*parse_decimal_seconds(text), read % 2 == 0 ? read : read - 1) << text;
    } else {
      EXPECT_EQ(format_seconds(read), text);
    }
  }
  EXPECT_GT(ties, 0);
}

TEST(TimeConversion, ToSecondsIsTheNearestDouble) {
  EXPECT_EQ(to_seconds(12'000'450), 12.00045);
  EXPECT_EQ(to_seconds(-12'000'450), -12.00045);
  // Past 2^53 µs, 10^10 s + 1 µs: the literal is the nearest double to the same decimal.
  EXPECT_EQ(to_seconds(from_seconds(10'000'000'000) + 1), 10000000000.000001);
  // Near 10^17 s doubles are 16 s apart: 1e17 + 10 s goes up to 1e17 + 16, and 1e17 + 8 s, a
  // tie, to the even 1e17 (its mantissa 1e17 / 16 = 6.25e15 is even); a microsecond more goes
  // up.
  const Time base = from_seconds(100'000'000'000'000'000);
  EXPECT_EQ(to_seconds(base + from_seconds(10)), 100000000000000016.0);
  EXPECT_EQ(to_seconds(base + from_seconds(8)), 1e17);
  EXPECT_EQ(to_seconds(base + from_seconds(8) + 1), 100000000000000016.0);
  EXPECT_EQ(to_seconds(-(base + from_seconds(10))), -100000000000000016.0);
  EXPECT_EQ(to_seconds(from_fractional_seconds(kLargestSeconds)), kLargestSeconds);
}

TEST(TimeFormat, PrintsEvery128BitTime) {
  EXPECT_EQ(format_seconds(0), "0.000000");
  EXPECT_EQ(format_seconds(-1), "-0.000001");
  EXPECT_EQ(format_seconds(from_seconds(100'000'000'000'000'010)), "100000000000000010.000000");
  // 2^64 - 1 and 2^64 µs: on either side of the 64-bit digit path.
  const Time two_to_64 = Time{1} << 64;
  EXPECT_EQ(format_seconds(two_to_64 - 1), "18446744073709.551615");
  EXPECT_EQ(format_seconds(two_to_64), "18446744073709.551616");
  // 10^23 µs: zeros inside the low 19 digits.
  EXPECT_EQ(format_seconds(from_seconds(100'000'000'000'000'000) * 1'000'000),
            "100000000000000000000000.000000");
  // 2^125 - 1 = 42535295865117307932921825928971026431; 2^127 = ...884105728.
  EXPECT_EQ(format_seconds(kMaxTime), "42535295865117307932921825928971.026431");
  EXPECT_EQ(format_seconds(-kMaxTime), "-42535295865117307932921825928971.026431");
  EXPECT_EQ(format_seconds(std::numeric_limits<Time>::min()),
            "-170141183460469231731687303715884.105728");
  EXPECT_EQ(format_seconds(kNever), "inf");
  std::string row = "x,";
  append_seconds(row, from_seconds(1));
  EXPECT_EQ(row, "x,1.000000");
}

TEST(TimeFormat, DecimalTextReadsBackExactly) {
  EXPECT_EQ(parse_decimal_seconds("100000000000000010.000000"),
            from_seconds(100'000'000'000'000'010));
  EXPECT_EQ(parse_decimal_seconds("42535295865117307932921825928971.026431"), kMaxTime);
  EXPECT_EQ(parse_decimal_seconds("-42535295865117307932921825928971.026431"), -kMaxTime);
  EXPECT_THROW(parse_decimal_seconds("42535295865117307932921825928971.026432"), std::out_of_range);
  EXPECT_THROW(parse_decimal_seconds("42535295865117307932921825928972"), std::out_of_range);
  EXPECT_THROW(parse_decimal_seconds(std::string(60, '9')), std::out_of_range);
  EXPECT_EQ(parse_decimal_seconds("12.00045"), 12'000'450);
  EXPECT_EQ(parse_decimal_seconds("7"), from_seconds(7));
  EXPECT_EQ(parse_decimal_seconds("7."), from_seconds(7));
  EXPECT_EQ(parse_decimal_seconds("-0.000000"), 0);
  // Past 6 decimals: the 7th digit decides, halves away from zero.
  EXPECT_EQ(parse_decimal_seconds("1.0000005"), 1'000'001);
  EXPECT_EQ(parse_decimal_seconds("1.00000049999"), 1'000'000);
  EXPECT_EQ(parse_decimal_seconds("-1.0000005"), -1'000'001);
  for (const char* other : {"", "-", ".5", "1e3", "+1", " 1", "1 ", "inf", "nan", "1.2.3", "0x1"}) {
    EXPECT_EQ(parse_decimal_seconds(other), std::nullopt) << other;
  }
}

TEST(TimeArithmetic, AddSaturatingNeverOverflowsWhateverTheSigns) {
  constexpr Time kLowest = std::numeric_limits<Time>::min();
  EXPECT_EQ(add_saturating(kNever - 1, 5), kNever);
  EXPECT_EQ(add_saturating(-5, kNever), kNever);
  EXPECT_EQ(add_saturating(kLowest + 1, -5), kLowest);
  EXPECT_EQ(add_saturating(-5, kLowest + 2), kLowest);
  EXPECT_EQ(add_saturating(-5, 3), -2);
  // Four valid times always fit: 4 * (2^125 - 1) < 2^127 - 1.
  EXPECT_EQ(add_saturating(2 * kMaxTime, 2 * kMaxTime), 4 * kMaxTime);
  EXPECT_LT(4 * kMaxTime, kNever);
}

TEST(TimeArithmetic, TimesBeyond64BitsHashApart) {
  std::unordered_map<Time, int, TimeHash> seen;
  seen[from_seconds(1)] = 1;
  seen[from_seconds(1) + (Time{1} << 64)] = 2;
  seen[kMaxTime] = 3;
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen.at(from_seconds(1) + (Time{1} << 64)), 2);
}

}  // namespace
}  // namespace batfill
