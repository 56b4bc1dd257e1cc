// DR_EVT's simple CSV traces: job_submit_time,num_nodes,queue,time_limit[,exit_status]
// [,actual_run_time], columns found by header name. Ids are the 1-based data row numbers.

#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "batfill/common/text.hpp"
#include "batfill/workload/job_stream.hpp"
#include "batfill/workload/workload.hpp"
#include "line_reader.hpp"
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
  RowReader(std::string path, Columns columns, detail::DelayProfiles& delay_profiles)
      : path_(std::move(path)), columns_(std::move(columns)), delay_profiles_(delay_profiles) {}

  // Row `row` (1-based, data rows only) at line `line_number` of the file.
  void read(std::string_view line, long line_number, int row, WorkloadJob& job) {
    split_cells(line, cells_);
    job = WorkloadJob();
    job.job.id = std::to_string(row);
    job.job.submit_time = previous_submit_;
    // "FILE:LINE", built only for a bad row: this runs for every row.
    const auto location = [&] { return path_ + ":" + std::to_string(line_number); };
    if (cells_.size() != columns_.count) {
      detail::mark_invalid(job, location(),
                           "has " + std::to_string(cells_.size()) + " cells, the header has " +
                               std::to_string(columns_.count));
    }
    read_submit_time(job, location);
    read_nodes(job, location);
    read_limit_and_runtime(job, location);
  }

  // The delay profile of the last row read; null when its runtime was unreadable.
  const Profile* profile() const { return profile_; }

 private:
  // Missing cells read as empty, which every check reports.
  std::string_view cell(std::size_t column) const {
    return column < cells_.size() ? cells_[column] : std::string_view();
  }

  template <class Location>
  void read_submit_time(WorkloadJob& job, const Location& location) {
    const std::optional<Time> submit = time_cell(cell(columns_.submit));
    if (submit && *submit >= 0) {
      job.job.submit_time = *submit;
    } else {
      detail::mark_invalid(
          job, location(),
          "job_submit_time " + quoted(cell(columns_.submit)) + " is not a number >= 0");
    }
    previous_submit_ = job.job.submit_time;
  }

  template <class Location>
  void read_nodes(WorkloadJob& job, const Location& location) {
    const std::optional<double> value = parse_number(cell(columns_.nodes));
    const std::optional<int> nodes = value ? detail::whole_int(*value) : std::nullopt;
    if (!nodes || *nodes <= 0) {
      detail::mark_invalid(
          job, location(),
          "num_nodes " + quoted(cell(columns_.nodes)) + " is not a whole number > 0");
    } else {
      job.job.nodes = *nodes;
    }
  }

  // Without an actual_run_time column a job runs exactly its limit (DR_EVT's "limit" mode,
  // docs/semantics.md#dr_evt-csv).
  template <class Location>
  void read_limit_and_runtime(WorkloadJob& job, const Location& location) {
    const std::optional<Time> limit = time_cell(cell(columns_.time_limit));
    if (limit && *limit > 0) {
      job.job.time_limit = *limit;
    } else {
      detail::mark_invalid(
          job, location(),
          "time_limit " + quoted(cell(columns_.time_limit)) + " is not a number > 0");
    }
    std::optional<Time> runtime = limit;
    if (columns_.actual_run_time) {
      runtime = time_cell(cell(*columns_.actual_run_time));
      if (!runtime || *runtime < 0) {
        detail::mark_invalid(
            job, location(),
            "actual_run_time " + quoted(cell(*columns_.actual_run_time)) + " is not a number >= 0");
      }
    }
    profile_ = nullptr;
    if (runtime && *runtime >= 0) {
      profile_ = &delay_profiles_.use(*runtime);
      job.profile = profile_->name;
    }
  }

  std::string path_;
  Columns columns_;
  detail::DelayProfiles& delay_profiles_;
  std::vector<std::string_view> cells_;  // reused from row to row
  Time previous_submit_ = 0;
  const Profile* profile_ = nullptr;
};

// The header of a DR_EVT CSV: its first line (false when the file is empty).
Columns header_columns(const std::string& path, bool has_line, std::string_view line) {
  if (!has_line || trim(line).empty()) {
    throw std::runtime_error(path +
                             ":1: empty DR_EVT CSV, expected the header "
                             "job_submit_time,num_nodes,queue,time_limit");
  }
  // Spreadsheet exports often start with a UTF-8 byte order mark.
  if (starts_with_byte_order_mark(line)) line.remove_prefix(3);
  return read_header(path, line);
}

// The lines of a DR_EVT CSV as jobs, whether the text is held whole or streamed: the header,
// then one job per data row, blank lines skipped.
class CsvRows {
 public:
  CsvRows(const std::string& path, bool has_header, std::string_view header,
          detail::DelayProfiles& profiles)
      : rows_(path, header_columns(path, has_header, header), profiles) {}

  // False for a blank line, which is no row.
  bool read_line(std::string_view line, long line_number, WorkloadJob& job) {
    if (trim(line).empty()) return false;
    rows_.read(line, line_number, ++row_, job);
    return true;
  }
  const Profile* profile() const { return rows_.profile(); }

 private:
  RowReader rows_;
  int row_ = 0;
};

// A DR_EVT CSV's jobs in file order, read from the file as they are asked for.
class CsvJobStream : public JobStream {
 public:
  // `header`: the first pass's, whose profiles this pass hands out.
  CsvJobStream(detail::StreamHeader header, const std::string& path, std::size_t records)
      : header_(std::move(header)),
        records_(records),
        lines_(path, detail::LineReader::Checksums::kAlreadyVerified),
        rows_(first_row(path)) {}

  const Workload& workload() const override { return *header_.workload; }
  std::size_t record_count() const override { return records_; }
  bool has_user_ids() const override { return false; }  // the format has none
  const Profile* profile_of(const WorkloadJob&) override { return rows_.profile(); }

  const WorkloadJob* next() override {
    std::string_view line;
    while (lines_.next(line)) {
      if (rows_.read_line(line, lines_.line_number(), job_)) return &job_;
    }
    return nullptr;
  }

 private:
  CsvRows first_row(const std::string& path) {
    std::string_view line;
    const bool has_header = lines_.next(line);
    return CsvRows(path, has_header, line, *header_.profiles);
  }

  detail::StreamHeader header_;
  std::size_t records_;
  detail::LineReader lines_;
  CsvRows rows_;
  WorkloadJob job_;
};

// What the first pass learns of the whole trace, as finish_workload would from the jobs.
struct CsvSurvey {
  detail::StreamHeader header;
  std::size_t records = 0;
  std::size_t invalid = 0;
  std::string first_invalid_reason;
  bool in_submit_order = true;
};

CsvSurvey survey_csv(const std::string& path) {
  CsvSurvey survey;
  Workload& header = *survey.header.workload;
  header.path = path;
  detail::LineReader lines(path);
  std::string_view line;
  const bool has_header = lines.next(line);
  CsvRows rows(path, has_header, line, *survey.header.profiles);
  WorkloadJob job;
  std::optional<Time> previous_submit;  // ids grow with rows: only times can break the order
  while (lines.next(line)) {
    if (!rows.read_line(line, lines.line_number(), job)) continue;
    ++survey.records;
    if (previous_submit && job.job.submit_time < *previous_submit) survey.in_submit_order = false;
    previous_submit = job.job.submit_time;
    if (!job.is_valid()) {
      if (survey.invalid++ == 0) survey.first_invalid_reason = job.rejection.text();
    } else if (job.job.has_time_limit() && rows.profile() != nullptr &&
               rows.profile()->delay > job.job.time_limit) {
      ++header.jobs_overrunning_limit;
    }
  }
  return survey;
}

}  // namespace

Workload read_drevt_csv(const std::string& path, const std::string& text) {
  Workload workload;
  workload.path = path;
  detail::LineScanner lines(text);
  std::string_view line;
  const bool has_header = lines.next(line);
  detail::DelayProfiles delay_profiles(workload.profiles);
  CsvRows rows(path, has_header, line, delay_profiles);
  WorkloadJob job;
  while (lines.next(line)) {
    if (rows.read_line(line, lines.line_number(), job)) workload.jobs.push_back(std::move(job));
  }
  detail::finish_workload(workload);
  return workload;
}

std::unique_ptr<JobStream> stream_drevt_csv(const std::string& path) {
  std::optional<CsvSurvey> found;
  try {
    found = survey_csv(path);
  } catch (const std::runtime_error&) {
    return nullptr;  // read_workload names the problem
  }
  CsvSurvey& trace = *found;
  if (!trace.in_submit_order) return nullptr;
  detail::add_count_warnings(*trace.header.workload, trace.records, trace.invalid,
                             trace.first_invalid_reason);
  return std::make_unique<CsvJobStream>(std::move(trace.header), path, trace.records);
}

}  // namespace batfill::workload
