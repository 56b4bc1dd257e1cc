#pragma once
// Text cells of the CSV files batfill writes (docs/semantics.md §6.1).

#include <string>

namespace batfill {

// Appends `text` as one cell: quoted (RFC 4180, `"` doubled) only when it holds a comma, a
// quote or a line break, so ordinary ids stay as Batsim writes them and no id can split a row.
void append_csv_field(std::string& out, const std::string& text);

}  // namespace batfill
