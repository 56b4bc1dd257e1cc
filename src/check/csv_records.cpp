#include "csv_records.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "batfill/common/text.hpp"

namespace batfill::check {
namespace {

// One CSV record per call (RFC 4180: quoted fields may hold commas, quotes and newlines, as
// Batsim's own writer produces for such job ids). `pos` moves past the record; `line` counts
// the newlines consumed.
std::vector<std::string> next_record(const std::string& text, std::size_t& pos, int& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  while (pos < text.size()) {
    const char c = text[pos++];
    if (quoted) {
      if (c == '"' && pos < text.size() && text[pos] == '"') {
        fields.back() += '"';
        ++pos;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n') {
      ++line;
      break;
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted) throw std::runtime_error("unterminated quoted field");
  return fields;
}

}  // namespace

std::size_t Columns::index(const std::string& name) const {
  const auto found = std::find(header_.begin(), header_.end(), name);
  if (found == header_.end()) throw std::runtime_error("no column " + quoted(name));
  return static_cast<std::size_t>(found - header_.begin());
}

Time parse_time(const std::string& text, const char* column) {
  try {
    // Exactly from the text when it is plain decimals, as both writers make it: through a
    // double, times past 2^33 s would move (docs/semantics.md#time).
    if (const std::optional<Time> exact = parse_decimal_seconds(text)) return *exact;
    char* end = nullptr;
    const double seconds = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) {
      throw std::runtime_error(std::string("column '") + column + "': not a time: " + quoted(text));
    }
    return from_fractional_seconds(seconds);
  } catch (const std::out_of_range&) {
    throw std::runtime_error(std::string("column '") + column +
                             "': time out of range: " + quoted(text));
  }
}

int parse_count(const std::string& text, const char* column) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || value < 0 || value > 1'000'000'000) {
    throw std::runtime_error(std::string("column '") + column + "': not a count: " + quoted(text));
  }
  return static_cast<int>(value);
}

void read_csv(const std::string& path, const std::string& text,
              const std::function<RowReader(const Columns&)>& header) {
  // Spreadsheet exports often start with a UTF-8 byte-order mark, as DR_EVT CSVs do.
  std::size_t pos = starts_with_byte_order_mark(text) ? 3 : 0;
  int line = 1;
  try {
    const RowReader row = header(Columns(next_record(text, pos, line)));
    while (pos < text.size()) {
      const int record_line = line;
      const std::vector<std::string> fields = next_record(text, pos, line);
      if (fields.size() == 1 && fields.front().empty()) continue;
      try {
        row(fields, record_line);
      } catch (const std::out_of_range&) {
        throw std::runtime_error("line " + std::to_string(record_line) + ": only " +
                                 std::to_string(fields.size()) + " fields");
      } catch (const std::runtime_error& error) {
        throw std::runtime_error("line " + std::to_string(record_line) + ": " + error.what());
      }
    }
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(quoted(path) + ": " + error.what());
  }
}

}  // namespace batfill::check
