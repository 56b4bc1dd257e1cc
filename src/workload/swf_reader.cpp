// SWF (Standard Workload Format, Parallel Workloads Archive v2.2), replayed with the
// conventions of docs/semantics.md#swf: id = field 1, submit = field 2, runtime = field 4, nodes =
// field 8 (field 5 when 8 is missing), time limit = field 9 (the runtime when 9 is missing).

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "batfill/common/machine_set.hpp"
#include "batfill/workload/workload.hpp"
#include "reader_support.hpp"
#include "swf_record_parser.hpp"

namespace batfill::workload {
namespace {

using detail::kSwfFieldCount;
using detail::MachineHeader;
using detail::RecordFields;
using detail::SwfRecordParser;

using detail::parse_number;
using detail::seconds_to_time;
using detail::trim;

// 1-based field numbers of the SWF definition.
constexpr int kJobNumber = 1;
constexpr int kSubmitTime = 2;
constexpr int kRunTime = 4;
constexpr int kAllocatedProcessors = 5;
constexpr int kRequestedProcessors = 8;
constexpr int kRequestedTime = 9;
constexpr int kUserId = 12;
constexpr int kQueueNumber = 15;
// The fields a valid record's job is made of; the others are only checked to be numbers.
constexpr std::array<int, 8> kUsedFields = {
    kJobNumber,           kSubmitTime,    kRunTime, kAllocatedProcessors,
    kRequestedProcessors, kRequestedTime, kUserId,  kQueueNumber};

// "; MaxProcs: 338" and "; MaxNodes: 338 (batch partition; 512 total)": the leading number.
void read_header_comment(std::string_view comment, const std::string& location,
                         MachineHeader& header, Workload& workload) {
  comment = trim(comment.substr(1));
  const std::size_t colon = comment.find(':');
  if (colon == std::string_view::npos) return;
  const std::string_view key = trim(comment.substr(0, colon));
  if (key != "MaxProcs" && key != "MaxNodes") return;
  const std::string_view value = trim(comment.substr(colon + 1));
  int count = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
  if (error != std::errc() || end == value.data() || count <= 0) {
    workload.warnings.push_back(location + ": header " + std::string(key) + " '" +
                                std::string(value) + "' is not a positive number; ignored");
    return;
  }
  if (count > kMaxMachines) {
    throw std::runtime_error(location + ": header " + std::string(key) + " " +
                             std::to_string(count) + " is more than batfill's limit of " +
                             std::to_string(kMaxMachines) + " machines");
  }
  (key == "MaxProcs" ? header.max_procs : header.max_nodes) = count;
}

void split_fields(std::string_view line, RecordFields& fields) {
  fields.count = 0;
  const auto is_blank = [](char c) { return c == ' ' || c == '\t'; };
  std::size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && is_blank(line[pos])) ++pos;
    const std::size_t start = pos;
    while (pos < line.size() && !is_blank(line[pos])) ++pos;
    if (pos == start) continue;
    if (fields.count < kSwfFieldCount) fields.text[fields.count] = line.substr(start, pos - start);
    ++fields.count;
  }
}

std::string field_text(std::string_view text) { return "'" + std::string(text) + "'"; }

}  // namespace

namespace detail {

SwfRecordParser::SwfRecordParser(const std::string& path, const ReadOptions& options,
                                 Workload& workload, ClaimId claim_id, DelayProfiles* shared)
    : path_(path),
      options_(options),
      workload_(workload),
      own_profiles_(workload.profiles),
      delay_profiles_(shared != nullptr ? *shared : own_profiles_),
      claim_id_(std::move(claim_id)) {}

std::string SwfRecordParser::location(long line) const {
  return path_ + ":" + std::to_string(line);
}

bool SwfRecordParser::read_line(std::string_view line, long line_number, WorkloadJob& job,
                                bool known_valid) {
  const std::string_view content = trim(line);
  if (content.empty()) return false;
  line_number_ = line_number;
  if (content.front() == ';') {
    read_header_comment(content, location(line_number_), header_, workload_);
    return false;
  }
  job = WorkloadJob();
  profile_ = nullptr;
  read_record(content, job, known_valid);
  return true;
}

void SwfRecordParser::finish_header() {
  workload_.machine_count = header_.max_procs ? header_.max_procs : header_.max_nodes;
}

void SwfRecordParser::invalid(WorkloadJob& job, const std::string& why) const {
  detail::mark_invalid(job, location(line_number_), why);
}

std::string SwfRecordParser::read_all_numbers() {
  std::string structure_problem;
  if (fields_.count != kSwfFieldCount) {
    structure_problem = "has " + std::to_string(fields_.count) + " fields, SWF records have " +
                        std::to_string(kSwfFieldCount);
  }
  // Fields past the 18th need no value: the record is already rejected for its length.
  const std::size_t kept = std::min(fields_.count, kSwfFieldCount);
  is_number_.fill(false);
  for (std::size_t i = 0; i < kept; ++i) {
    const std::optional<double> value = parse_number(fields_.text[i]);
    // Stored as two plain arrays: copying std::optional<double> values per field stalled.
    is_number_[i + 1] = value.has_value();
    number_[i + 1] = value.value_or(0);
    if (!value && structure_problem.empty()) {
      structure_problem =
          "field " + std::to_string(i + 1) + " " + field_text(fields_.text[i]) + " is not a number";
    }
  }
  return structure_problem;
}

bool SwfRecordParser::read_used_numbers() {
  if (fields_.count != kSwfFieldCount) return false;
  is_number_.fill(false);
  for (const int field : kUsedFields) {
    const std::optional<double> value = parse_number(fields_.text[field - 1]);
    if (!value) return false;
    is_number_[field] = true;
    number_[field] = *value;
  }
  return true;
}

void SwfRecordParser::read_record(std::string_view content, WorkloadJob& job, bool known_valid) {
  split_fields(content, fields_);
  // A record known valid had 18 numeric fields; should the file have changed since, it is read
  // in full like any other.
  const std::string structure_problem =
      known_valid && read_used_numbers() ? std::string() : read_all_numbers();

  job.job.id =
      is_number_[kJobNumber] ? std::string(fields_.text[0]) : "line" + std::to_string(line_number_);
  job.job.submit_time = previous_submit_;
  if (is_number_[kSubmitTime] && number_[kSubmitTime] >= 0) {
    if (const auto submit = seconds_to_time(number_[kSubmitTime])) job.job.submit_time = *submit;
  }
  previous_submit_ = job.job.submit_time;
  detail::IdRegistry::Claim claim = claim_id_(job.job.id, line_number_);
  job.job.id = std::move(claim.id);
  if (!claim.duplicate.empty()) invalid(job, claim.duplicate);

  if (!structure_problem.empty()) {
    invalid(job, structure_problem);
  } else {
    read_fields(job);
  }
}

// Called with all 18 fields numeric.
void SwfRecordParser::read_fields(WorkloadJob& job) {
  const double submit = number_[kSubmitTime];
  if (submit < 0 || !seconds_to_time(submit)) {
    invalid(job, "submit time (field 2) " + field_text(fields_.text[1]) +
                     " is negative or out of range");
  }

  const std::optional<Time> runtime = seconds_to_time(number_[kRunTime]);
  if (number_[kRunTime] < 0 || !runtime) {
    // -1 is how SWF records a job that never ran (typically cancelled, status 5).
    invalid(job, "runtime (field 4) is " + std::string(fields_.text[kRunTime - 1]) +
                     ", so there is nothing to replay");
  } else {
    profile_ = &delay_profiles_.use(*runtime);
    job.profile = profile_->name;
    job.job.runtime = *runtime;
  }

  const bool requested_known = number_[kRequestedProcessors] >= 0;
  const int nodes_field = requested_known ? kRequestedProcessors : kAllocatedProcessors;
  const std::optional<int> nodes = detail::whole_int(number_[nodes_field]);
  if (!nodes || *nodes <= 0) {
    invalid(job, "node count (field " + std::to_string(nodes_field) + ") is " +
                     std::string(fields_.text[nodes_field - 1]) +
                     (requested_known ? "" : " and field 8 is missing"));
  } else {
    job.job.nodes = *nodes;
  }
  // The user, for predictors that learn per user
  // (docs/semantics.md#predictions-correctors-and-backfill-order); -1 stays unknown.
  if (const std::optional<int> user = detail::whole_int(number_[kUserId]); user && *user >= 0) {
    job.job.user = *user;
  }
  // The queue (docs/semantics.md#queues---queues); -1 is SWF's "unknown".
  if (const std::optional<int> queue = detail::whole_int(number_[kQueueNumber]);
      queue && *queue >= 0) {
    job.job.queue = std::to_string(*queue);
  }

  const double requested_time = number_[kRequestedTime];
  if (requested_time > 0) {
    if (const auto limit = seconds_to_time(requested_time)) {
      job.job.time_limit = *limit;
    } else {
      invalid(job, "requested time (field 9) " + field_text(fields_.text[8]) + " is out of range");
    }
  } else if (job.is_valid()) {
    if (options_.reject_missing_time_limit) {
      invalid(job, "no requested time (field 9 is " + std::string(fields_.text[8]) +
                       ") and missing limits are rejected");
    } else {
      // A perfect estimate: the only fallback that neither invents slack nor kills the job.
      job.job.time_limit = *runtime;
      ++workload_.time_limits_from_runtime;
    }
  }
  // Counted here, where the runtime is at hand, rather than by looking the profile up later.
  if (job.is_valid() && job.job.has_time_limit() && *runtime > job.job.time_limit) {
    ++jobs_overrunning_limit_;
  }
}

}  // namespace detail

namespace {

// The whole file at once, into one Workload.
class SwfReader {
 public:
  SwfReader(const std::string& path, const ReadOptions& options)
      : ids_([this](long line) { return parser_.location(line); }),
        parser_(path, options, workload_,
                [this](const std::string& id, long line) { return ids_.claim(id, line); }) {
    workload_.path = path;
  }

  Workload read(const std::string& text) {
    const auto line_count = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    workload_.jobs.reserve(line_count);
    ids_.reserve(line_count);
    detail::LineScanner lines(text);
    std::string_view line;
    while (lines.next(line)) {
      // Built in place: moving a finished job in cost more than filling it there.
      WorkloadJob& job = workload_.jobs.emplace_back();
      if (!parser_.read_line(line, lines.line_number(), job)) workload_.jobs.pop_back();
    }
    parser_.finish_header();
    detail::finish_workload(workload_, parser_.jobs_overrunning_limit());
    return std::move(workload_);
  }

 private:
  Workload workload_;
  detail::IdRegistry ids_;
  SwfRecordParser parser_;
};

}  // namespace

Workload read_swf(const std::string& path, const std::string& text, const ReadOptions& options) {
  return SwfReader(path, options).read(text);
}

}  // namespace batfill::workload
