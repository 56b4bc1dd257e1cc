// The --resize CSV file: resize requests for the jobs of any trace format (docs/semantics.md
// docs/semantics.md#resize-requests-of-running-jobs), one `job_id,after,nodes` line each after a
// header line.

#include <stdexcept>
#include <string>
#include <unordered_map>

#include "batfill/common/machine_set.hpp"
#include "batfill/common/text.hpp"
#include "batfill/workload/workload.hpp"
#include "reader_support.hpp"

namespace batfill::workload {
namespace {

class ResizeFileReader {
 public:
  ResizeFileReader(const std::string& path, Workload& workload) : path_(path), workload_(workload) {
    for (WorkloadJob& job : workload_.jobs) jobs_.emplace(job.job.id, &job);
  }

  void read(std::string_view text) {
    // Spreadsheet exports often start with a UTF-8 byte-order mark, as DR_EVT CSVs do.
    if (starts_with_byte_order_mark(text)) text.remove_prefix(3);
    detail::LineScanner lines(text);
    std::string_view line;
    bool header = true;
    while (lines.next(line)) {
      line_ = lines.line_number();
      if (detail::trim(line).empty()) continue;
      const std::vector<std::string_view> fields = split(line);
      if (header) {
        check_header(fields);
        header = false;
        continue;
      }
      add(fields);
    }
    if (header) fail("", "no header line 'job_id,after,nodes'");
  }

 private:
  [[noreturn]] void fail(const std::string& column, const std::string& why) const {
    const std::string line = line_ > 0 ? ":" + std::to_string(line_) : "";
    const std::string key = column.empty() ? "" : " '" + column + "'";
    throw std::runtime_error(path_ + line + ":" + key + " " + why);
  }

  static std::vector<std::string_view> split(std::string_view line) {
    std::vector<std::string_view> fields;
    for (std::size_t comma = line.find(','); comma != std::string_view::npos;
         comma = line.find(',')) {
      fields.push_back(detail::trim(line.substr(0, comma)));
      line.remove_prefix(comma + 1);
    }
    fields.push_back(detail::trim(line));
    return fields;
  }

  void check_header(const std::vector<std::string_view>& fields) const {
    if (fields.size() != 3 || fields[0] != "job_id" || fields[1] != "after" ||
        fields[2] != "nodes") {
      fail("", "the header must be 'job_id,after,nodes'");
    }
  }

  void add(const std::vector<std::string_view>& fields) {
    if (fields.size() != 3) fail("", "expected 3 fields job_id,after,nodes");
    const std::string id(fields[0]);
    const auto job = jobs_.find(id);
    if (job == jobs_.end()) fail("job_id", "names no job of the workload: " + quoted(id));
    const std::optional<double> seconds = detail::parse_number(fields[1]);
    const std::optional<Time> after =
        seconds && *seconds >= 0 ? detail::seconds_to_time(*seconds) : std::nullopt;
    if (!after) {
      fail("after", std::string("must be ") + detail::kResizeAfterLimit + ", got " +
                        quoted(std::string(fields[1])));
    }
    const std::optional<double> count = detail::parse_number(fields[2]);
    const std::optional<int> nodes = count ? detail::whole_int(*count) : std::nullopt;
    if (!nodes || *nodes <= 0 || *nodes > kMaxMachines) {
      fail("nodes", std::string("must be ") + detail::kResizeNodesLimit + ", got " +
                        quoted(std::string(fields[2])));
    }
    const Job& limited = job->second->job;
    if (limited.has_time_limit() && *after >= limited.time_limit) {
      fail("after", "must be before the run limit of job " + quoted(id) + " (" +
                        format_seconds(limited.time_limit) + " s), got " +
                        quoted(std::string(fields[1])));
    }
    job->second->resizes.push_back({*after, *nodes});
  }

  const std::string& path_;
  Workload& workload_;
  std::unordered_map<std::string, WorkloadJob*> jobs_;
  int line_ = 0;
};

}  // namespace

void add_resize_requests(const std::string& path, const std::string& text, Workload& workload) {
  ResizeFileReader(path, workload).read(text);
}

}  // namespace batfill::workload
