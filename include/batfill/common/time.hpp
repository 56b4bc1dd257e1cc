#pragma once
// Simulated time in batfill is an exact integer count of microseconds.
//
// SWF traces give integral seconds and Batsim writes doubles with 6 decimals, so one integer
// microsecond count holds both without drift and keeps every comparison of the spec
// (strict `<` against a reservation) exact. Floating point is used only at the edges:
// parsing Batsim's JSON numbers and handing sleep times to SimGrid.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace batfill {

// Microseconds of simulated time, on 128 bits: a real Batsim sends times up to 10^23 s, which is
// 10^29 µs, beyond any 64-bit count (docs/semantics.md#time). GCC's and Clang's signed 128-bit
// integer keeps times plain integers in every layer; in ISO mode its std::numeric_limits exist,
// but std::hash, std::to_string and streams do not, hence TimeHash and format_seconds below.
__extension__ typedef __int128 Time;

constexpr Time kMicrosecondsPerSecond = 1'000'000;
// The largest magnitude of any time batfill reads (docs/semantics.md#time): 2^125 - 1 µs, about
// 4.25e31 s, beyond everything Batsim can send. Sums of up to four such times still fit, so
// `now + delay` never overflows; a larger input is an error naming it, never a wrapped time.
constexpr Time kMaxTime = (Time{1} << 125) - 1;
// "Never": a reservation that no running job can satisfy, the end of a job with no limit.
constexpr Time kNever = std::numeric_limits<Time>::max();
// The time limit of a job that has none (SWF field 9 <= 0, Batsim walltime absent or -1), in
// every layer. It is "never", so a job without a limit plans to end never with no special case.
constexpr Time kNoTimeLimit = kNever;

constexpr Time from_seconds(std::int64_t seconds) { return seconds * kMicrosecondsPerSecond; }

// The exact value of `seconds` rounded to the nearest microsecond, halves away from zero (its
// integer part times 10^6 plus its rounded fraction; never the double product seconds * 1e6,
// which is inexact from 2^53 µs). Throws std::out_of_range for NaN, infinities and values beyond
// ±kMaxTime.
Time from_fractional_seconds(double seconds);

// The double nearest to t seconds (SimGrid's clock): exact up to 2^53 µs, then rounded to the
// double's resolution (16 s at 10^17 s; docs/semantics.md#time).
double to_seconds(Time t);

// Plain decimal seconds ("12.000450", "-3", "100000000000000010.000000"), as format_seconds and
// Batsim's CSV outputs write them, read exactly: a double holds such a text only to about 16
// digits. Rounded to the microsecond past 6 decimals, halves away from zero; nullopt for any
// other spelling (exponent, sign '+', spaces, "inf"); std::out_of_range beyond ±kMaxTime.
std::optional<Time> parse_decimal_seconds(std::string_view text);

// "12.000450" — the 6-decimal form Batsim writes in its CSV outputs. kNever prints "inf".
std::string format_seconds(Time t);
// The same text appended to `out`: CSV rows are built without a temporary string per field.
void append_seconds(std::string& out, Time t);

// Saturating a + b: planning with a job that has no limit must not overflow. Sums beyond the
// Time range in either direction clamp (never signed overflow, whatever the signs).
constexpr Time add_saturating(Time a, Time b) {
  if (a == kNever || b == kNever) return kNever;
  if (a > 0 && b > kNever - a) return kNever;
  constexpr Time kLowest = std::numeric_limits<Time>::min();
  if (a < 0 && b < kLowest - a) return kLowest;
  return a + b;
}

// Hash for unordered containers keyed by Time: ISO C++ has no std::hash for 128-bit integers.
struct TimeHash {
  std::size_t operator()(Time t) const noexcept {
    return std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(t) ^
                                      static_cast<std::uint64_t>(t >> 64));
  }
};

}  // namespace batfill
