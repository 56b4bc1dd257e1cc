#include "batfill/core/time.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace batfill {

Time from_fractional_seconds(double seconds) {
  const double micros = std::round(seconds * static_cast<double>(kMicrosecondsPerSecond));
  if (!std::isfinite(micros) || std::fabs(micros) >= 9.2e18) {
    throw std::out_of_range("time value out of range: " + std::to_string(seconds) + " s");
  }
  return static_cast<Time>(micros);
}

double to_seconds(Time t) {
  return static_cast<double>(t) / static_cast<double>(kMicrosecondsPerSecond);
}

std::string format_seconds(Time t) {
  if (t == kNever) return "inf";
  const bool negative = t < 0;
  const std::uint64_t magnitude =
      negative ? static_cast<std::uint64_t>(-(t + 1)) + 1 : static_cast<std::uint64_t>(t);
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%s%llu.%06llu", negative ? "-" : "",
                static_cast<unsigned long long>(magnitude / kMicrosecondsPerSecond),
                static_cast<unsigned long long>(magnitude % kMicrosecondsPerSecond));
  return buffer;
}

}  // namespace batfill
