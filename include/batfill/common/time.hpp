#pragma once
// Simulated time in batfill is an exact integer count of microseconds.
//
// SWF traces give integral seconds and Batsim writes doubles with 6 decimals, so one int64
// microsecond count holds both without drift and keeps every comparison of the spec
// (strict `<` against a reservation) exact. Floating point is used only at the edges:
// parsing Batsim's JSON numbers and handing sleep times to SimGrid.

#include <cstdint>
#include <limits>
#include <string>

namespace batfill {

using Time = std::int64_t;  // microseconds of simulated time

constexpr Time kMicrosecondsPerSecond = 1'000'000;
// The largest magnitude of any time batfill reads (docs/semantics.md §1.1): 2^62 - 1 µs, about
// 4.6e12 s (146,000 years). The sum of two such times still fits in int64, so `now + delay`
// never overflows; a larger input is an error naming it, never a wrapped time.
constexpr Time kMaxTime = (Time{1} << 62) - 1;
// "Never": a reservation that no running job can satisfy, the end of a job with no limit.
constexpr Time kNever = std::numeric_limits<Time>::max();
// The time limit of a job that has none (SWF field 9 <= 0, Batsim walltime absent or -1), in
// every layer. It is "never", so a job without a limit plans to end never with no special case.
constexpr Time kNoTimeLimit = kNever;

constexpr Time from_seconds(std::int64_t seconds) { return seconds * kMicrosecondsPerSecond; }

// Rounds to the nearest microsecond; throws std::out_of_range for NaN, infinities and values
// beyond ±kMaxTime.
Time from_fractional_seconds(double seconds);

double to_seconds(Time t);

// "12.000450" — the 6-decimal form Batsim writes in its CSV outputs. kNever prints "inf".
std::string format_seconds(Time t);
// The same text appended to `out`: CSV rows are built without a temporary string per field.
void append_seconds(std::string& out, Time t);

// Saturating a + b: planning with a job that has no limit must not overflow. Sums beyond the
// int64 range in either direction clamp (never signed overflow, whatever the signs).
constexpr Time add_saturating(Time a, Time b) {
  if (a == kNever || b == kNever) return kNever;
  if (a > 0 && b > kNever - a) return kNever;
  constexpr Time kLowest = std::numeric_limits<Time>::min();
  if (a < 0 && b < kLowest - a) return kLowest;
  return a + b;
}

}  // namespace batfill
