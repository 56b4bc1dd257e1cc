#include "batfill/common/time.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace batfill {
namespace {

__extension__ typedef unsigned __int128 Magnitude;

[[noreturn]] void out_of_range(const std::string& seconds) {
  throw std::out_of_range("time value out of range: " + seconds +
                          " s (batfill's times lie within ±4.25e31 s)");
}

[[noreturn]] void out_of_range(double seconds) { out_of_range(std::to_string(seconds)); }

bool all_digits(std::string_view text) {
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

Magnitude magnitude_of(Time t) {
  // -(t + 1) + 1: the magnitude of the lowest Time without a signed overflow.
  return t < 0 ? static_cast<Magnitude>(-(t + 1)) + 1 : static_cast<Magnitude>(t);
}

}  // namespace

Time from_fractional_seconds(double seconds) {
  // |seconds| = mantissa * 2^exponent exactly, with an integral mantissa below 2^53, read from
  // the IEEE 754 fields rather than by frexp and ldexp, which cost more than the rest of the
  // conversion together. Times 10^6 it is below 2^73, so the whole conversion is exact integer
  // arithmetic: the same result as the integer part times 10^6 plus the fraction rounded, for
  // every double.
  static_assert(std::numeric_limits<double>::is_iec559);
  std::uint64_t bits = 0;
  std::memcpy(&bits, &seconds, sizeof bits);
  const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
  if (biased == 0x7ff) out_of_range(seconds);  // infinities and NaN
  std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased != 0) mantissa |= std::uint64_t{1} << 52;  // normal: the implicit leading 1
  const int exponent = (biased != 0 ? biased : 1) - 1075;
  const Magnitude scaled = Magnitude{mantissa} * static_cast<Magnitude>(kMicrosecondsPerSecond);
  Magnitude micros = 0;
  if (exponent >= 0) {
    // A nonzero mantissa is at least 2^52, so from exponent 55 the product is beyond 2^125.
    if (exponent > 54) out_of_range(seconds);
    micros = scaled << exponent;
  } else if (exponent > -75) {
    // Halves away from zero (std::round's rule, as before): add half the divisor, truncate.
    // From a shift of 75 the value is below 2^73 / 2^75 µs, which rounds to 0.
    const int shift = -exponent;
    micros = (scaled + (Magnitude{1} << (shift - 1))) >> shift;
  }
  if (micros > static_cast<Magnitude>(kMaxTime)) out_of_range(seconds);
  const auto magnitude = static_cast<Time>(micros);
  return (bits >> 63) != 0 ? -magnitude : magnitude;
}

double to_seconds(Time t) {
  constexpr Time kExactInDouble = Time{1} << 53;
  if (t > -kExactInDouble && t < kExactInDouble) {
    // t converts exactly, so the division is the only rounding.
    return static_cast<double>(t) / static_cast<double>(kMicrosecondsPerSecond);
  }
  // Converting t first would round twice. Whole seconds (here at least 2^33) and the rest
  // instead: below 2^53 s the whole seconds convert exactly, and the rest, a multiple of 10^-6 s,
  // is never within its own rounding error (2^-53) of a halfway point between doubles, which
  // lie on multiples of 2^-20 s from 2^33 s; from 2^53 s, doubling the whole seconds and adding
  // a sticky bit for any rest makes the one conversion round as the exact value would.
  const Magnitude magnitude = magnitude_of(t);
  const Magnitude whole = magnitude / static_cast<Magnitude>(kMicrosecondsPerSecond);
  const Magnitude rest = magnitude % static_cast<Magnitude>(kMicrosecondsPerSecond);
  const double seconds =
      whole < static_cast<Magnitude>(kExactInDouble)
          ? static_cast<double>(whole) +
                static_cast<double>(rest) / static_cast<double>(kMicrosecondsPerSecond)
          : std::ldexp(static_cast<double>(2 * whole + (rest != 0 ? 1 : 0)), -1);
  return t < 0 ? -seconds : seconds;
}

std::optional<Time> parse_decimal_seconds(std::string_view text) {
  const std::string_view original = text;
  const bool negative = !text.empty() && text.front() == '-';
  if (negative) text.remove_prefix(1);
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  if (whole.empty() || !all_digits(whole) || !all_digits(fraction)) return std::nullopt;
  constexpr auto kMicros = static_cast<Magnitude>(kMicrosecondsPerSecond);
  constexpr Magnitude kMaxSeconds = static_cast<Magnitude>(kMaxTime) / kMicros;
  Magnitude seconds = 0;
  for (const char c : whole) {
    seconds = seconds * 10 + static_cast<Magnitude>(c - '0');
    if (seconds > kMaxSeconds) out_of_range(std::string(original));
  }
  Magnitude micros = seconds * kMicros;
  Magnitude place = kMicros / 10;
  for (std::size_t i = 0; i < fraction.size() && i < 7; ++i) {
    const auto digit = static_cast<Magnitude>(fraction[i] - '0');
    if (i < 6) {
      micros += digit * place;
      place /= 10;
    } else if (digit >= 5) {
      ++micros;  // the rest is at least half a microsecond
    }
  }
  if (micros > static_cast<Magnitude>(kMaxTime)) out_of_range(std::string(original));
  const auto magnitude = static_cast<Time>(micros);
  return negative ? -magnitude : magnitude;
}

std::string format_seconds(Time t) {
  std::string text;
  append_seconds(text, t);
  return text;
}

namespace {

// Two decimal digits per entry: "00", "01", ... "99".
constexpr std::array<char, 200> digit_pairs() {
  std::array<char, 200> pairs{};
  for (int i = 0; i < 100; ++i) {
    pairs[static_cast<std::size_t>(2 * i)] = static_cast<char>('0' + i / 10);
    pairs[static_cast<std::size_t>(2 * i + 1)] = static_cast<char>('0' + i % 10);
  }
  return pairs;
}
constexpr std::array<char, 200> kDigitPairs = digit_pairs();

// Any time, negative or beyond 2^64 µs included; kept out of the common path below so that
// its registers and 128-bit library calls are not paid for every replayed time.
[[gnu::noinline]] void append_any_seconds(std::string& out, Time t) {
  if (t == kNever) {
    out += "inf";
    return;
  }
  // Hand-rolled rather than snprintf: outputs format several times per job, and printf's
  // format parsing dominated the writing of large _jobs.csv files. 128-bit division is a library
  // call, so digits come from 64-bit halves: below 2^127, magnitude / 10^19 fits 64 bits.
  constexpr std::uint64_t kLowDigits = 10'000'000'000'000'000'000u;  // 10^19
  const Magnitude magnitude = magnitude_of(t);
  const bool wide = magnitude > std::numeric_limits<std::uint64_t>::max();
  std::uint64_t digits = static_cast<std::uint64_t>(wide ? magnitude % kLowDigits : magnitude);
  char buffer[48];
  char* end = buffer + sizeof buffer;
  char* digit = end;
  for (int i = 0; i < 6; ++i) {
    *--digit = static_cast<char>('0' + digits % 10);
    digits /= 10;
  }
  *--digit = '.';
  if (wide) {
    for (int i = 6; i < 19; ++i) {
      *--digit = static_cast<char>('0' + digits % 10);
      digits /= 10;
    }
    digits = static_cast<std::uint64_t>(magnitude / kLowDigits);
  }
  do {
    *--digit = static_cast<char>('0' + digits % 10);
    digits /= 10;
  } while (digits != 0);
  if (t < 0) *--digit = '-';
  out.append(digit, static_cast<std::size_t>(end - digit));
}

}  // namespace

void append_seconds(std::string& out, Time t) {
  // Replayed times are non-negative and below 2^64 µs (585,000 years): whole seconds and the
  // six decimals from one 64-bit division, the seconds by std::to_chars, the decimals by digit
  // pairs. Outputs format several times per job.
  if (t < 0 || t > static_cast<Time>(std::numeric_limits<std::uint64_t>::max())) {
    append_any_seconds(out, t);
    return;
  }
  constexpr auto kPerSecond = static_cast<std::uint64_t>(kMicrosecondsPerSecond);
  const auto micros = static_cast<std::uint64_t>(t);
  char buffer[32];
  char* end = std::to_chars(buffer, buffer + 20, micros / kPerSecond).ptr;
  *end++ = '.';
  const auto fraction = static_cast<std::uint32_t>(micros % kPerSecond);
  for (const std::uint32_t pair : {fraction / 10'000, fraction / 100 % 100, fraction % 100}) {
    *end++ = kDigitPairs[2 * pair];
    *end++ = kDigitPairs[2 * pair + 1];
  }
  out.append(buffer, static_cast<std::size_t>(end - buffer));
}

}  // namespace batfill
