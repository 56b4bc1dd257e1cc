#pragma once
// Text cells of the CSV files batfill writes (docs/semantics.md#prefix_jobscsv).

#include <algorithm>
#include <string>

namespace batfill {

// Appends `text` as one cell: quoted (RFC 4180, `"` doubled) only when it holds a comma, a
// quote or a line break, so ordinary ids stay as Batsim writes them and no id can split a row.
// Inline: three cells of every row of _jobs.csv.
inline void append_csv_field(std::string& out, const std::string& text) {
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
