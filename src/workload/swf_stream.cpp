// Streaming SWF replay (docs/semantics.md#streaming-replay): a first pass validates the whole trace
// keeping only counts and the ids that repeat; the jobs are then read again, one at a time, as the
// replay asks for them. Both passes parse records with the whole-file reader's parser, so jobs,
// renamed ids and reasons are the same.

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#include "batfill/workload/job_stream.hpp"
#include "line_reader.hpp"
#include "reader_support.hpp"
#include "swf_record_parser.hpp"

namespace batfill::workload {
namespace {

using detail::IdRegistry;
using detail::LineReader;
using detail::SwfRecordParser;

using Header = detail::StreamHeader;
using detail::submitted_before;

// The lines of the invalid records, so that the second pass parses only the fields a job is made
// of in the others. Kept up to a bound, so memory stays that of the jobs in flight whatever the
// trace: past it, records are parsed in full (the same jobs, only slower).
class InvalidLines {
 public:
  void add(long line) {
    if (lines_.size() < kMaxLines) {
      lines_.push_back(line);
    } else if (known_until_ == kEveryLine) {
      known_until_ = line - 1;
    }
  }
  // Asked for lines in increasing order.
  bool known_valid(long line) {
    while (next_ < lines_.size() && lines_[next_] < line) ++next_;
    return line <= known_until_ && !(next_ < lines_.size() && lines_[next_] == line);
  }
  // Nothing is known: every record is parsed in full.
  static InvalidLines none() {
    InvalidLines lines;
    lines.known_until_ = 0;
    return lines;
  }

 private:
  static constexpr std::size_t kMaxLines = std::size_t{1} << 20;  // 8 MB
  static constexpr long kEveryLine = std::numeric_limits<long>::max();
  std::vector<long> lines_;  // increasing
  std::size_t next_ = 0;
  long known_until_ = kEveryLine;  // lines_ lists every invalid record up to this line
};

// What the first pass learns of the whole trace.
struct Survey {
  Header header;  // path, machine size, profiles, limits taken from runtimes, warnings
  std::size_t records = 0;
  std::size_t invalid = 0;
  bool in_submit_order = true;
  bool has_user_ids = false;
  long first_invalid_line = 0;       // 0: every record is valid
  std::string first_invalid_reason;  // its reason, but "first used at ?" for a duplicate
  bool first_invalid_is_duplicate = false;
  std::unordered_set<std::string> repeated_ids;
  InvalidLines invalid_lines;
};

Survey survey(const std::string& path, const ReadOptions& options) {
  Survey survey;
  Workload& header = *survey.header.workload;
  header.path = path;
  detail::RepeatedIds ids;
  bool duplicate = false;
  SwfRecordParser parser(
      path, options, header,
      [&](const std::string& id, long) {
        IdRegistry::Claim claim = ids.claim(id);
        duplicate = !claim.duplicate.empty();
        return claim;
      },
      survey.header.profiles.get());
  LineReader lines(path);
  std::string_view line;
  WorkloadJob job;
  std::optional<Job> previous;
  while (lines.next(line)) {
    if (!parser.read_line(line, lines.line_number(), job)) continue;
    ++survey.records;
    if (job.job.user >= 0) survey.has_user_ids = true;
    if (previous && submitted_before(job.job, *previous)) survey.in_submit_order = false;
    previous = job.job;
    if (job.is_valid()) continue;
    survey.invalid_lines.add(lines.line_number());
    if (survey.invalid++ == 0) {
      survey.first_invalid_line = lines.line_number();
      survey.first_invalid_reason = job.rejection.text();
      survey.first_invalid_is_duplicate = duplicate;
    }
  }
  parser.finish_header();
  header.jobs_overrunning_limit = parser.jobs_overrunning_limit();
  survey.repeated_ids = ids.repeated();
  return survey;
}

// The second pass: the trace's jobs in file order, which the survey found to be submit order.
class SwfJobStream : public JobStream {
 public:
  // `header`: the first pass's; its profiles are the ones this pass hands out.
  SwfJobStream(Header header, const std::string& path, const ReadOptions& options,
               const std::unordered_set<std::string>& repeated_ids, InvalidLines invalid_lines,
               std::size_t records, bool has_user_ids)
      : header_(std::move(header)),
        invalid_lines_(std::move(invalid_lines)),
        records_(records),
        has_user_ids_(has_user_ids),
        repeated_ids_(repeated_ids),
        ids_([this](long line) { return parser_.location(line); }, &repeated_ids_),
        parser_(
            path, options, scratch_,
            [this](const std::string& id, long line) { return ids_.claim(id, line); },
            header_.profiles.get()),
        lines_(path, LineReader::Checksums::kAlreadyVerified) {}

  const Workload& workload() const override { return *header_.workload; }
  // The parser has it at hand: no lookup by name.
  const Profile* profile_of(const WorkloadJob&) override { return parser_.profile(); }
  std::size_t record_count() const override { return records_; }
  bool has_user_ids() const override { return has_user_ids_; }

  const WorkloadJob* next() override {
    std::string_view line;
    while (lines_.next(line)) {
      const long number = lines_.line_number();
      if (parser_.read_line(line, number, job_, invalid_lines_.known_valid(number))) return &job_;
    }
    return nullptr;
  }
  long line_number() const { return lines_.line_number(); }

 private:
  Header header_;
  InvalidLines invalid_lines_;
  std::size_t records_;
  bool has_user_ids_;
  // The parser's counts and warnings: the header already has them from the first pass.
  Workload scratch_;
  std::unordered_set<std::string> repeated_ids_;
  IdRegistry ids_;
  SwfRecordParser parser_;
  LineReader lines_;
  WorkloadJob job_;
};

// The full reason of the first invalid record, when the first pass could not know where its
// repeated id was first used: the second pass's reader, run up to that record.
std::string first_invalid_reason(const std::string& path, const ReadOptions& options,
                                 const Survey& survey) {
  if (!survey.first_invalid_is_duplicate) return survey.first_invalid_reason;
  SwfJobStream stream(Header(), path, options, survey.repeated_ids, InvalidLines::none(),
                      survey.records, survey.has_user_ids);
  while (const WorkloadJob* job = stream.next()) {
    if (stream.line_number() == survey.first_invalid_line) return job->rejection.text();
  }
  return survey.first_invalid_reason;
}

}  // namespace

const Profile* JobStream::profile_of(const WorkloadJob& job) {
  const auto known = resolved_.find(job.profile);
  if (known != resolved_.end()) return known->second;
  const auto profile = workload().profiles.find(job.profile);
  // An unknown name is not remembered: a streamed workload may define it later.
  if (profile == workload().profiles.end()) return nullptr;
  return resolved_.emplace(job.profile, &profile->second).first->second;
}

WorkloadJobStream::WorkloadJobStream(Workload workload)
    : workload_(std::move(workload)),
      has_user_ids_(std::any_of(workload_.jobs.begin(), workload_.jobs.end(),
                                [](const WorkloadJob& job) { return job.job.user >= 0; })) {}

const WorkloadJob* WorkloadJobStream::next() {
  // The job handed out before is no longer needed: its text goes, the slot stays.
  if (next_ > 0) workload_.jobs[next_ - 1] = WorkloadJob();
  return next_ < workload_.jobs.size() ? &workload_.jobs[next_++] : nullptr;
}

std::unique_ptr<JobStream> stream_swf(const std::string& path, const ReadOptions& options) {
  std::optional<Survey> found;
  try {
    found = survey(path, options);
  } catch (const std::runtime_error&) {
    return nullptr;  // read_workload names the problem
  }
  Survey& trace = *found;
  if (!trace.in_submit_order) return nullptr;
  detail::add_count_warnings(*trace.header.workload, trace.records, trace.invalid,
                             first_invalid_reason(path, options, trace));
  return std::make_unique<SwfJobStream>(std::move(trace.header), path, options, trace.repeated_ids,
                                        std::move(trace.invalid_lines), trace.records,
                                        trace.has_user_ids);
}

}  // namespace batfill::workload
