#include "reader_support.hpp"

#include "batfill/common/text.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <stdexcept>

namespace batfill::workload {

std::size_t Workload::invalid_count() const {
  return static_cast<std::size_t>(std::count_if(
      jobs.begin(), jobs.end(), [](const WorkloadJob& job) { return !job.is_valid(); }));
}

namespace detail {

bool LineScanner::next(std::string_view& line) {
  if (done_) return false;
  const std::size_t newline = rest_.find('\n');
  if (newline == std::string_view::npos) {
    done_ = true;
    // A final line without a newline still counts; an empty remainder after one does not.
    if (rest_.empty()) return false;
    line = rest_;
    rest_ = {};
  } else {
    line = rest_.substr(0, newline);
    rest_.remove_prefix(newline + 1);
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++line_number_;
  return true;
}

std::string_view trim(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

std::optional<double> parse_number(std::string_view text) {
  const char* first = text.data();
  const char* last = first + text.size();
  // Trace fields are almost all integers, which parse several times faster as such. Below 2^53
  // the conversion is exact, so the value is the one the double parser gives; "-0" is left to it
  // to keep its sign.
  constexpr long long kExactInDouble = 1LL << 53;
  long long integer = 0;
  const auto [integer_end, integer_error] = std::from_chars(first, last, integer);
  const bool negative_zero = integer == 0 && !text.empty() && text.front() == '-';
  if (integer_error == std::errc() && integer_end == last && !negative_zero &&
      integer > -kExactInDouble && integer < kExactInDouble) {
    return static_cast<double>(integer);
  }
  double value = 0;
  const auto [end, error] = std::from_chars(first, last, value);
  if (text.empty() || error != std::errc() || end != last || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<int> whole_int(double value) {
  if (value != std::floor(value) || value < INT_MIN || value > INT_MAX) return std::nullopt;
  return static_cast<int>(value);
}

std::optional<Time> seconds_to_time(double seconds) {
  try {
    return from_fractional_seconds(seconds);
  } catch (const std::out_of_range&) {
    return std::nullopt;
  }
}

std::string delay_profile_name(Time delay) {
  std::string text = format_seconds(delay);
  const std::size_t dot = text.find('.');
  if (dot == std::string::npos) return text;
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

namespace {
// Whole-second delays up to about 12 days take the direct table (at most 8 MB of pointers,
// grown only as far as the longest runtime seen).
constexpr Time kTabledDelayLimit = from_seconds(1'000'000);
}  // namespace

const Profile& DelayProfiles::use(Time delay) {
  // Within the table's range a delay fits 64 bits, where dividing is one instruction rather than
  // a 128-bit library call.
  constexpr auto kPerSecond = static_cast<std::int64_t>(kMicrosecondsPerSecond);
  if (delay < 0 || delay >= kTabledDelayLimit ||
      static_cast<std::int64_t>(delay) % kPerSecond != 0) {
    const Profile*& profile = other_profiles_[delay];
    if (profile == nullptr) profile = &add(delay);
    return *profile;
  }
  const auto second = static_cast<std::size_t>(static_cast<std::int64_t>(delay) / kPerSecond);
  if (second >= by_whole_second_.size()) {
    by_whole_second_.resize(std::max(second + 1, 2 * by_whole_second_.size()), nullptr);
  }
  const Profile*& profile = by_whole_second_[second];
  if (profile == nullptr) profile = &add(delay);
  return *profile;
}

const Profile& DelayProfiles::add(Time delay) {
  const std::string name = delay_profile_name(delay);
  Profile& profile = profiles_[name];
  profile.name = name;
  profile.type = Profile::Type::kDelay;
  profile.delay = delay;
  return profile;
}

void IdRegistry::reserve(std::size_t ids) {
  seen_.reserve(ids);
  table_limit_ = std::max(table_limit_, 2 * ids);
}

std::optional<std::size_t> IdRegistry::table_index(const std::string& id) const {
  if (id.empty() || id.size() > 9 || (id[0] == '0' && id.size() > 1)) return std::nullopt;
  std::size_t number = 0;
  for (const char c : id) {
    if (c < '0' || c > '9') return std::nullopt;
    number = number * 10 + static_cast<std::size_t>(c - '0');
  }
  if (number >= table_limit_) return std::nullopt;
  return number;
}

bool IdRegistry::claim_in_table(std::size_t index, const std::string& id, long position) {
  if (index >= first_position_.size()) {
    first_position_.resize(std::max(index + 1, 2 * first_position_.size()), kUnused);
  }
  long& first = first_position_[index];
  if (first == kUnused) {
    first = position;
    return true;
  }
  // A repeat: the map takes over this id from here, as it counts the copies for renaming.
  seen_.try_emplace(id, Seen{first, 1});
  return false;
}

IdRegistry::Claim IdRegistry::claim(const std::string& id, long position) {
  if (tracked_ != nullptr) {
    if (tracked_->empty() || tracked_->count(id) == 0) return {id, ""};
  } else if (const auto index = table_index(id)) {
    if (claim_in_table(*index, id, position)) return {id, ""};
  }
  Seen& seen = seen_[id];
  if (seen.uses++ == 0) {
    seen.first_position = position;
    return {id, ""};
  }
  // The renamed id may itself be taken (a JSON workload can contain "17#2").
  std::string renamed;
  int copy = seen.uses;
  do {
    renamed = id + "#" + std::to_string(copy++);
  } while (seen_.count(renamed) != 0);
  const std::string first = describe_(seen.first_position);
  seen_[renamed] = Seen{position, 1};
  return {renamed,
          "duplicate job id '" + id + "' (first used at " + first + "), renamed '" + renamed + "'"};
}

IdRegistry::Claim RepeatedIds::claim(const std::string& id) {
  if (seen_.insert(id)) return {id, ""};
  repeated_.insert(id);
  int& uses = uses_[id];
  if (uses == 0) uses = 1;
  // The same sequence as IdRegistry::claim: the next copy number, past any id already taken.
  int copy = ++uses;
  std::string renamed;
  do {
    renamed = id + "#" + std::to_string(copy++);
  } while (seen_.contains(renamed));
  seen_.insert(renamed);
  return {renamed, "duplicate job id '" + id + "' (first used at ?), renamed '" + renamed + "'"};
}

void mark_invalid(WorkloadJob& job, const std::string& location, const std::string& why) {
  job.rejection.add_problem(location, why);
}

namespace {
// Valid delay jobs whose runtime is strictly greater than their limit.
int count_jobs_overrunning_limit(const Workload& workload) {
  // Profiles are looked up through a hash of their names, not the std::map, whose string
  // comparisons showed in profiles of large traces.
  std::unordered_map<std::string_view, const Profile*> profiles;
  profiles.reserve(workload.profiles.size());
  for (const auto& [name, profile] : workload.profiles) profiles.emplace(name, &profile);
  int overrunning = 0;
  for (const WorkloadJob& job : workload.jobs) {
    if (!job.is_valid() || !job.job.has_time_limit()) continue;
    const auto profile = profiles.find(job.profile);
    if (profile == profiles.end()) continue;
    if (profile->second->type == Profile::Type::kDelay &&
        profile->second->delay > job.job.time_limit) {
      ++overrunning;
    }
  }
  return overrunning;
}
}  // namespace

bool submitted_before(const Job& a, const Job& b) {
  if (a.submit_time != b.submit_time) return a.submit_time < b.submit_time;
  return job_id_less(a.id, b.id);
}

void sort_by_submission(Workload& workload) {
  const auto before = [](const WorkloadJob& a, const WorkloadJob& b) {
    return submitted_before(a.job, b.job);
  };
  // Traces are usually in order already; checking first spares moving every job.
  if (!std::is_sorted(workload.jobs.begin(), workload.jobs.end(), before)) {
    std::stable_sort(workload.jobs.begin(), workload.jobs.end(), before);
  }
}

void finish_workload(Workload& workload, std::optional<int> jobs_overrunning_limit) {
  sort_by_submission(workload);

  // Batsim cuts a job at its walltime (COMPLETED_WALLTIME_REACHED); the count tells the user
  // how much of the trace's real behaviour that changes.
  workload.jobs_overrunning_limit =
      jobs_overrunning_limit ? *jobs_overrunning_limit : count_jobs_overrunning_limit(workload);
  const auto first = std::find_if(workload.jobs.begin(), workload.jobs.end(),
                                  [](const WorkloadJob& job) { return !job.is_valid(); });
  add_count_warnings(workload, workload.jobs.size(), workload.invalid_count(),
                     first == workload.jobs.end() ? "" : first->rejection.text());
}

void add_count_warnings(Workload& workload, std::size_t records, std::size_t invalid,
                        const std::string& first_invalid_reason) {
  if (workload.jobs_overrunning_limit > 0) {
    workload.warnings.push_back(count_of(workload.jobs_overrunning_limit, "job") +
                                " would run past the time limit and will be stopped at it");
  }
  if (invalid > 0) {
    workload.warnings.push_back(
        std::to_string(invalid) + " of " + std::to_string(records) +
        " records are invalid and will be rejected (first: " + first_invalid_reason + ")");
  }
}

}  // namespace detail
}  // namespace batfill::workload
