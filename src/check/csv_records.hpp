#pragma once
// Reading the CSV files `batfill check` validates: records, columns by name, times and counts,
// with errors that name the file, the line and the column.

#include <functional>
#include <string>
#include <vector>

#include "batfill/common/time.hpp"

namespace batfill::check {

// Batsim rounds each time it writes to 6 decimals independently, so a sum of two printed times
// may be off by one microsecond from the printed third
// (docs/semantics.md#checking-a-schedule-batfill-check).
constexpr Time kTolerance = 1;

inline bool off_by_more(Time printed, Time sum) {
  return printed - sum > kTolerance || sum - printed > kTolerance;
}

class Columns {
 public:
  explicit Columns(std::vector<std::string> header) : header_(std::move(header)) {}
  // Throws std::runtime_error("no column 'name'").
  std::size_t index(const std::string& name) const;

 private:
  std::vector<std::string> header_;
};

// Throws std::runtime_error naming the column.
Time parse_time(const std::string& text, const char* column);
int parse_count(const std::string& text, const char* column);

using RowReader = std::function<void(const std::vector<std::string>& fields, int line)>;

// Reads `text` (RFC 4180: quoted fields may hold commas, quotes and newlines, as Batsim's own
// writer produces for such job ids): the header goes to `header`, which returns the reader of
// the rows; blank lines are skipped. An error of either, or a row too short for a column, is
// rethrown as std::runtime_error("'PATH': line N: ...").
void read_csv(const std::string& path, const std::string& text,
              const std::function<RowReader(const Columns&)>& header);

}  // namespace batfill::check
