#include "batfill/common/text.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace batfill {
namespace {

void append_shown(std::string& out, std::string_view bytes) {
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out += c;
      continue;
    }
    char escaped[8];
    std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
    out += escaped;
  }
}

}  // namespace

std::string excerpt(std::string_view text, std::size_t offset, std::size_t width) {
  if (text.size() <= width) {
    std::string out = "'";
    append_shown(out, text);
    return out + "'";
  }
  if (offset > text.size()) offset = text.size();
  const std::size_t first = offset > width / 2 ? offset - width / 2 : 0;
  const std::string_view shown = text.substr(first, width);
  std::string out = first > 0 ? "'..." : "'";
  append_shown(out, shown);
  out += first + shown.size() < text.size() ? "...'" : "'";
  return out + " (byte " + std::to_string(offset) + " of " + std::to_string(text.size()) + ")";
}

std::string count_of(long long count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

std::string shortest_text(double value) {
  char text[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  // Plain decimals when they are short ("0.001" rather than "1e-03").
  if (std::strchr(text, 'e') != nullptr) {
    char plain[40];
    for (int decimals = 0; decimals <= 20; ++decimals) {
      std::snprintf(plain, sizeof plain, "%.*f", decimals, value);
      if (std::strtod(plain, nullptr) == value) return plain;
    }
  }
  return text;
}

}  // namespace batfill
