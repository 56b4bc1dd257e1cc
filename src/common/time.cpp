#include "batfill/common/time.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace batfill {

Time from_fractional_seconds(double seconds) {
  const double micros = std::round(seconds * static_cast<double>(kMicrosecondsPerSecond));
  if (!std::isfinite(micros) || std::fabs(micros) > static_cast<double>(kMaxTime)) {
    throw std::out_of_range("time value out of range: " + std::to_string(seconds) +
                            " s (batfill's times lie within ±4.6e12 s)");
  }
  return static_cast<Time>(micros);
}

double to_seconds(Time t) {
  return static_cast<double>(t) / static_cast<double>(kMicrosecondsPerSecond);
}

std::string format_seconds(Time t) {
  std::string text;
  append_seconds(text, t);
  return text;
}

void append_seconds(std::string& out, Time t) {
  if (t == kNever) {
    out += "inf";
    return;
  }
  // Hand-rolled rather than snprintf: outputs format several times per job, and printf's
  // format parsing dominated the writing of large _jobs.csv files.
  const bool negative = t < 0;
  std::uint64_t magnitude =
      negative ? static_cast<std::uint64_t>(-(t + 1)) + 1 : static_cast<std::uint64_t>(t);
  char buffer[32];
  char* end = buffer + sizeof buffer;
  char* digit = end;
  for (int i = 0; i < 6; ++i) {
    *--digit = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  }
  *--digit = '.';
  do {
    *--digit = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (negative) *--digit = '-';
  out.append(digit, static_cast<std::size_t>(end - digit));
}

}  // namespace batfill
