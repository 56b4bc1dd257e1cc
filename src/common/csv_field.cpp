#include "batfill/common/csv_field.hpp"

#include <algorithm>

namespace batfill {

void append_csv_field(std::string& out, const std::string& text) {
  // A plain loop: find_first_of searches the text once per special character.
  const bool plain = std::none_of(text.begin(), text.end(), [](char c) {
    return c == ',' || c == '"' || c == '\r' || c == '\n';
  });
  if (plain) {
    out += text;
    return;
  }
  out += '"';
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace batfill
