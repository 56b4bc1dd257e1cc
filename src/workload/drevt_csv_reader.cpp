// DR_EVT's simple CSV traces: job_submit_time,num_nodes,queue,time_limit[,exit_status]
// [,actual_run_time], columns found by header name. Ids are the 1-based data row numbers, and
// without actual_run_time a job runs exactly its time limit (DR_EVT's "limit" mode, notes §6).

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
                               "[,exit_status][,actual_run_time]; got " + quoted(header) + ")");
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

}  // namespace

Workload read_drevt_csv(const std::string& path, const std::string& text) {
  Workload workload;
  workload.path = path;
  detail::LineScanner lines(text);
  std::string_view line;
  if (!lines.next(line) || trim(line).empty()) {
    throw std::runtime_error(path + ":1: empty DR_EVT CSV, expected the header "
                             "job_submit_time,num_nodes,queue,time_limit");
  }
  // Spreadsheet exports often start with a UTF-8 byte order mark.
  if (line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
  const Columns columns = read_header(path, line);

  detail::DelayProfiles delay_profiles(workload);
  std::vector<std::string_view> cells;
  int row = 0;
  Time previous_submit = 0;
  while (lines.next(line)) {
    if (trim(line).empty()) continue;
    const std::string location = path + ":" + std::to_string(lines.line_number());
    split_cells(line, cells);
    WorkloadJob job;
    job.job.id = std::to_string(++row);
    job.job.submit_time = previous_submit;
    if (cells.size() != columns.count) {
      detail::mark_invalid(job, location,
                           "has " + std::to_string(cells.size()) + " cells, the header has " +
                               std::to_string(columns.count));
    }
    // Missing cells read as empty, which every check below reports.
    const auto cell = [&](std::size_t column) {
      return column < cells.size() ? cells[column] : std::string_view();
    };

    const std::optional<double> submit = parse_number(cell(columns.submit));
    const std::optional<Time> submit_time = submit ? seconds_to_time(*submit) : std::nullopt;
    if (!submit_time || *submit_time < 0) {
      detail::mark_invalid(job, location,
                           "job_submit_time " + quoted(cell(columns.submit)) +
                               " is not a number >= 0");
    } else {
      job.job.submit_time = *submit_time;
    }
    previous_submit = job.job.submit_time;

    const std::optional<double> nodes_value = parse_number(cell(columns.nodes));
    const std::optional<int> nodes = nodes_value ? detail::whole_int(*nodes_value) : std::nullopt;
    if (!nodes || *nodes <= 0) {
      detail::mark_invalid(job, location,
                           "num_nodes " + quoted(cell(columns.nodes)) +
                               " is not a whole number > 0");
    } else {
      job.job.nodes = *nodes;
    }

    const std::optional<double> limit_value = parse_number(cell(columns.time_limit));
    const std::optional<Time> limit = limit_value ? seconds_to_time(*limit_value) : std::nullopt;
    if (!limit || *limit <= 0) {
      detail::mark_invalid(job, location,
                           "time_limit " + quoted(cell(columns.time_limit)) +
                               " is not a number > 0");
    } else {
      job.job.time_limit = *limit;
    }

    std::optional<Time> runtime = limit;
    if (columns.actual_run_time) {
      const std::optional<double> value = parse_number(cell(*columns.actual_run_time));
      runtime = value ? seconds_to_time(*value) : std::nullopt;
      if (!runtime || *runtime < 0) {
        detail::mark_invalid(job, location,
                             "actual_run_time " + quoted(cell(*columns.actual_run_time)) +
                                 " is not a number >= 0");
        runtime.reset();
      }
    }
    if (runtime && *runtime >= 0) job.profile = delay_profiles.use(*runtime);
    workload.jobs.push_back(std::move(job));
  }
  detail::finish_workload(workload);
  return workload;
}

}  // namespace batfill::workload
