// DR_EVT's simple CSV traces: job_submit_time,num_nodes,queue,time_limit[,exit_status]
// [,actual_run_time], columns found by header name. Ids are the 1-based data row numbers.

#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "batfill/common/text.hpp"
#include "batfill/workload/workload.hpp"
#include "reader_support.hpp"

namespace batfill::workload {
namespace {

using detail::parse_number;
using detail::seconds_to_time;
using detail::trim;

void split_cells(std::string_view line, std::vector<std::string_view>& cells) {
  cells.clear();
  while (true) {
    const std::size_t comma = line.find(',');
    cells.push_back(trim(line.substr(0, comma)));
    if (comma == std::string_view::npos) return;
    line.remove_prefix(comma + 1);
  }
}

struct Columns {
  std::size_t count = 0;
  std::size_t submit = 0;
  std::size_t nodes = 0;
  std::size_t time_limit = 0;
  std::optional<std::size_t> actual_run_time;
};

Columns read_header(const std::string& path, std::string_view header) {
  std::vector<std::string_view> names;
  split_cells(header, names);
  std::map<std::string_view, std::size_t> index;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!index.emplace(names[i], i).second) {
      throw std::runtime_error(path + ":1: column " + quoted(names[i]) + " appears twice");
    }
  }
  const auto require = [&](std::string_view name) {
    const auto it = index.find(name);
    if (it == index.end()) {
      throw std::runtime_error(path + ":1: DR_EVT CSV header lacks column " + quoted(name) +
                               " (expected job_submit_time,num_nodes,queue,time_limit"
                               "[,exit_status][,actual_run_time]; got " +
                               quoted(header) + ")");
    }
    return it->second;
  };
  Columns columns;
  columns.count = names.size();
  columns.submit = require("job_submit_time");
  columns.nodes = require("num_nodes");
  columns.time_limit = require("time_limit");
  if (const auto it = index.find("actual_run_time"); it != index.end()) {
    columns.actual_run_time = it->second;
  }
  return columns;
}

// A cell of seconds as a time; nullopt when it is not a number.
std::optional<Time> time_cell(std::string_view cell) {
  const std::optional<double> value = parse_number(cell);
  return value ? seconds_to_time(*value) : std::nullopt;
}

// One data row as a job; a bad cell marks the job invalid with "LOCATION: why" and leaves the
// field at its default (the submit time at the previous row's, so the trace stays in order).
class RowReader {
 public:
  RowReader(const Columns& columns, detail::DelayProfiles& delay_profiles)
      : columns_(columns), delay_profiles_(delay_profiles) {}

  WorkloadJob read(std::string_view line, const std::string& location, int row) {
    split_cells(line, cells_);
    WorkloadJob job;
    job.job.id = std::to_string(row);
    job.job.submit_time = previous_submit_;
    if (cells_.size() != columns_.count) {
      detail::mark_invalid(job, location,
                           "has " + std::to_string(cells_.size()) + " cells, the header has " +
                               std::to_string(columns_.count));
    }
    read_submit_time(job, location);
    read_nodes(job, location);
    read_limit_and_runtime(job, location);
    return job;
  }

 private:
  // Missing cells read as empty, which every check reports.
  std::string_view cell(std::size_t column) const {
    return column < cells_.size() ? cells_[column] : std::string_view();
  }

  void read_submit_time(WorkloadJob& job, const std::string& location) {
    const std::optional<Time> submit = time_cell(cell(columns_.submit));
    if (submit && *submit >= 0) {
      job.job.submit_time = *submit;
    } else {
      detail::mark_invalid(
          job, location,
          "job_submit_time " + quoted(cell(columns_.submit)) + " is not a number >= 0");
    }
    previous_submit_ = job.job.submit_time;
  }

  void read_nodes(WorkloadJob& job, const std::string& location) {
    const std::optional<double> value = parse_number(cell(columns_.nodes));
    const std::optional<int> nodes = value ? detail::whole_int(*value) : std::nullopt;
    if (!nodes || *nodes <= 0) {
      detail::mark_invalid(
          job, location,
          "num_nodes " + quoted(cell(columns_.nodes)) + " is not a whole number > 0");
    } else {
      job.job.nodes = *nodes;
    }
  }

  // Without an actual_run_time column a job runs exactly its limit (DR_EVT's "limit" mode,
  // docs/semantics.md §5.2).
  void read_limit_and_runtime(WorkloadJob& job, const std::string& location) {
    const std::optional<Time> limit = time_cell(cell(columns_.time_limit));
    if (limit && *limit > 0) {
      job.job.time_limit = *limit;
    } else {
      detail::mark_invalid(
          job, location,
          "time_limit " + quoted(cell(columns_.time_limit)) + " is not a number > 0");
    }
    std::optional<Time> runtime = limit;
    if (columns_.actual_run_time) {
      runtime = time_cell(cell(*columns_.actual_run_time));
      if (!runtime || *runtime < 0) {
        detail::mark_invalid(
            job, location,
            "actual_run_time " + quoted(cell(*columns_.actual_run_time)) + " is not a number >= 0");
      }
    }
    if (runtime && *runtime >= 0) job.profile = delay_profiles_.use(*runtime).name;
  }

  const Columns& columns_;
  detail::DelayProfiles& delay_profiles_;
  std::vector<std::string_view> cells_;  // reused from row to row
  Time previous_submit_ = 0;
};

}  // namespace

Workload read_drevt_csv(const std::string& path, const std::string& text) {
  Workload workload;
  workload.path = path;
  detail::LineScanner lines(text);
  std::string_view line;
  if (!lines.next(line) || trim(line).empty()) {
    throw std::runtime_error(path +
                             ":1: empty DR_EVT CSV, expected the header "
                             "job_submit_time,num_nodes,queue,time_limit");
  }
  // Spreadsheet exports often start with a UTF-8 byte order mark.
  if (line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
  const Columns columns = read_header(path, line);

  detail::DelayProfiles delay_profiles(workload.profiles);
  RowReader rows(columns, delay_profiles);
  int row = 0;
  while (lines.next(line)) {
    if (trim(line).empty()) continue;
    const std::string location = path + ":" + std::to_string(lines.line_number());
    workload.jobs.push_back(rows.read(line, location, ++row));
  }
  detail::finish_workload(workload);
  return workload;
}

}  // namespace batfill::workload
