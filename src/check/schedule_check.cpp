#include "batfill/check/schedule_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "batfill/common/text.hpp"

namespace batfill::check {
namespace {

// Batsim rounds each time it writes to 6 decimals independently, so a sum of two printed times
// may be off by one microsecond from the printed third (docs/semantics.md §6.5).
constexpr Time kTolerance = 1;

bool off_by_more(Time printed, Time sum) {
  return printed - sum > kTolerance || sum - printed > kTolerance;
}

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

class Columns {
 public:
  Columns(const std::vector<std::string>& header) : header_(header) {}

  std::size_t index(const std::string& name) const {
    const auto found = std::find(header_.begin(), header_.end(), name);
    if (found == header_.end()) throw std::runtime_error("no column " + quoted(name));
    return static_cast<std::size_t>(found - header_.begin());
  }

 private:
  std::vector<std::string> header_;
};

Time parse_time(const std::string& text, const char* column) {
  try {
    // Exactly from the text when it is plain decimals, as both writers make it: through a
    // double, times past 2^33 s would move (docs/semantics.md §1.1).
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

std::string strip_workload(const std::string& id) {
  const std::size_t bang = id.rfind('!');
  return bang == std::string::npos ? id : id.substr(bang + 1);
}

struct ColumnIndexes {
  std::size_t id, submit, requested, state, start, execution, finish, waiting, alloc;
  explicit ColumnIndexes(const Columns& c)
      : id(c.index("job_id")),
        submit(c.index("submission_time")),
        requested(c.index("requested_number_of_resources")),
        state(c.index("final_state")),
        start(c.index("starting_time")),
        execution(c.index("execution_time")),
        finish(c.index("finish_time")),
        waiting(c.index("waiting_time")),
        alloc(c.index("allocated_resources")) {}
};

ScheduledJob parse_row(const std::vector<std::string>& f, const ColumnIndexes& c) {
  ScheduledJob job;
  job.id = strip_workload(f.at(c.id));
  job.submit = parse_time(f.at(c.submit), "submission_time");
  job.requested = parse_count(f.at(c.requested), "requested_number_of_resources");
  // Rejected jobs have no start (batfill leaves the cells empty, Batsim writes -1 or 0).
  job.executed = f.at(c.state) != "REJECTED" && !f.at(c.alloc).empty();
  if (!job.executed) return job;
  job.start = parse_time(f.at(c.start), "starting_time");
  job.execution = parse_time(f.at(c.execution), "execution_time");
  job.finish = parse_time(f.at(c.finish), "finish_time");
  job.waiting = parse_time(f.at(c.waiting), "waiting_time");
  try {
    job.machines = parse_machine_set(f.at(c.alloc));
  } catch (const std::exception& error) {
    throw std::runtime_error(std::string("column 'allocated_resources': ") + error.what());
  }
  return job;
}

std::string at(const ScheduledJob& job) {
  return "job " + quoted(job.id) + " (line " + std::to_string(job.line) + ")";
}

void check_times(const ScheduledJob& job, std::vector<std::string>& out) {
  if (job.start < job.submit) {
    out.push_back(at(job) + " starts at " + format_seconds(job.start) +
                  " s, before its submission at " + format_seconds(job.submit) + " s");
  }
  if (off_by_more(job.finish, job.start + job.execution)) {
    out.push_back(at(job) + ": finish " + format_seconds(job.finish) + " s != start " +
                  format_seconds(job.start) + " + execution " + format_seconds(job.execution));
  }
  if (off_by_more(job.waiting, job.start - job.submit)) {
    out.push_back(at(job) + ": waiting " + format_seconds(job.waiting) + " s != start " +
                  format_seconds(job.start) + " - submission " + format_seconds(job.submit));
  }
}

void check_allocation(const ScheduledJob& job, const CheckOptions& options,
                      std::vector<std::string>& out) {
  const int size = machine_count(job.machines);
  if (size != job.requested) {
    out.push_back(at(job) + " at " + format_seconds(job.start) + " s: allocation " +
                  quoted(to_string(job.machines)) + " has " + std::to_string(size) +
                  " machines, it requested " + std::to_string(job.requested));
  }
  const bool below = boost::icl::first(job.machines) < 0;
  const bool above =
      options.machine_count && boost::icl::last(job.machines) >= *options.machine_count;
  if (below || above) {
    out.push_back(at(job) + " at " + format_seconds(job.start) + " s: allocation " +
                  quoted(to_string(job.machines)) + " lies outside machines 0-" +
                  std::to_string(options.machine_count.value_or(0) - 1));
  }
}

// Per machine, the jobs sorted by start: each must start at or after the latest end so far.
void check_overlaps(const std::vector<ScheduledJob>& jobs, std::vector<std::string>& out) {
  std::map<int, std::vector<const ScheduledJob*>> by_machine;
  for (const ScheduledJob& job : jobs) {
    if (!job.executed) continue;
    for_each_id(job.machines, [&](int id) { by_machine[id].push_back(&job); });
  }
  for (auto& [machine, list] : by_machine) {
    std::stable_sort(list.begin(), list.end(), [](const ScheduledJob* a, const ScheduledJob* b) {
      return a->start < b->start;
    });
    const ScheduledJob* latest = nullptr;
    for (const ScheduledJob* job : list) {
      if (latest != nullptr && job->start < latest->finish) {
        out.push_back("machine " + std::to_string(machine) + " runs " + at(*latest) + " and " +
                      at(*job) + " at once at " + format_seconds(job->start) +
                      " s (the first ends at " + format_seconds(latest->finish) + " s)");
      }
      if (latest == nullptr || job->finish > latest->finish) latest = job;
    }
  }
}

void check_presence(const std::vector<ScheduledJob>& jobs, const CheckOptions& options,
                    std::vector<std::string>& out) {
  std::map<std::string, const ScheduledJob*> seen;
  for (const ScheduledJob& job : jobs) {
    const auto [first, inserted] = seen.emplace(job.id, &job);
    if (!inserted)
      out.push_back(at(job) + " appears again (first at line " +
                    std::to_string(first->second->line) + ")");
    if (options.workload_ids && options.workload_ids->count(job.id) == 0) {
      out.push_back(at(job) + " is not in the workload");
    }
  }
  if (!options.workload_ids) return;
  for (const std::string& id : *options.workload_ids) {
    if (seen.count(id) == 0) out.push_back("workload job " + quoted(id) + " is missing");
  }
}

}  // namespace

std::vector<ScheduledJob> read_jobs_csv(const std::string& path, const std::string& text) {
  std::size_t pos = 0;
  int line = 1;
  std::vector<ScheduledJob> jobs;
  try {
    const Columns columns(next_record(text, pos, line));
    const ColumnIndexes indexes(columns);
    while (pos < text.size()) {
      const int record_line = line;
      const std::vector<std::string> fields = next_record(text, pos, line);
      if (fields.size() == 1 && fields.front().empty()) continue;
      try {
        ScheduledJob job = parse_row(fields, indexes);
        job.line = record_line;
        jobs.push_back(std::move(job));
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
  return jobs;
}

std::vector<std::string> check_schedule(const std::vector<ScheduledJob>& jobs,
                                        const CheckOptions& options) {
  std::vector<std::string> violations;
  for (const ScheduledJob& job : jobs) {
    if (!job.executed) continue;
    check_times(job, violations);
    check_allocation(job, options, violations);
  }
  check_overlaps(jobs, violations);
  check_presence(jobs, options, violations);
  return violations;
}

}  // namespace batfill::check
