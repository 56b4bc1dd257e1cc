// Batsim JSON workloads (docs/semantics.md#batsim-json-workloads): nb_res, jobs and profiles. A
// syntax error or a broken top level spoils the whole file; a broken job or profile only makes its
// jobs invalid.

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "batfill/common/json_depth.hpp"
#include "batfill/common/json_document.hpp"
#include "batfill/common/machine_set.hpp"
#include "batfill/common/text.hpp"
#include "batfill/workload/workload.hpp"
#include "reader_support.hpp"

namespace batfill::workload {
namespace {

using detail::seconds_to_time;
using rapidjson::Value;

// The job fields batfill interprets; every other member is a user field kept in extra_json.
constexpr const char* kJobFields[] = {"id", "subtime", "res", "profile", "walltime"};

std::string to_json(const Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

int line_of_offset(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(),
                                         text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

const Value* member(const Value& object, const char* name) {
  const auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::optional<double> non_negative_number(const Value* value) {
  if (value == nullptr || !value->IsNumber() || value->GetDouble() < 0) return std::nullopt;
  return value->GetDouble();
}

// All elements numbers >= 0, else nullopt.
std::optional<std::vector<double>> non_negative_numbers(const Value* value) {
  if (value == nullptr || !value->IsArray()) return std::nullopt;
  std::vector<double> numbers;
  numbers.reserve(value->Size());
  for (const Value& element : value->GetArray()) {
    const std::optional<double> number = non_negative_number(&element);
    if (!number) return std::nullopt;
    numbers.push_back(*number);
  }
  return numbers;
}

// The line on which each element of the top-level "jobs" array starts, so that problems with
// a job point into the file. RapidJSON's DOM keeps no positions, hence this separate SAX pass
// over the (already validated) text.
class JobLineFinder : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, JobLineFinder> {
 public:
  static std::vector<int> find(const std::string& text) {
    JobLineFinder finder(text);
    rapidjson::Reader reader;
    reader.Parse<rapidjson::kParseIterativeFlag>(finder.stream_, finder);
    return std::move(finder.lines_);
  }

  bool Default() { return element(); }
  bool Key(const char* name, rapidjson::SizeType length, bool) {
    if (depth_ == 1) top_level_key_.assign(name, length);
    return true;
  }
  bool StartObject() { return open(); }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool StartArray() {
    if (depth_ == 1 && top_level_key_ == "jobs" && !jobs_seen_) in_jobs_ = jobs_seen_ = true;
    return open();
  }
  bool EndArray(rapidjson::SizeType) { return close(); }

 private:
  explicit JobLineFinder(const std::string& text) : text_(text), stream_(text.c_str()) {}

  // Called as each value starts (or, for scalars, just after it: the same line).
  bool element() {
    if (in_jobs_ && depth_ == 2) lines_.push_back(line_here());
    return true;
  }
  bool open() {
    element();
    ++depth_;
    return true;
  }
  bool close() {
    --depth_;
    if (depth_ == 1) in_jobs_ = false;
    return true;
  }
  // Positions only grow, so newlines are counted once over the whole pass.
  int line_here() {
    const std::size_t offset = std::min(stream_.Tell(), text_.size());
    line_ +=
        static_cast<int>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(counted_),
                                    text_.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    counted_ = offset;
    return line_;
  }

  const std::string& text_;
  rapidjson::StringStream stream_;
  std::vector<int> lines_;
  int depth_ = 0;
  std::string top_level_key_;
  bool in_jobs_ = false;
  bool jobs_seen_ = false;
  int line_ = 1;
  std::size_t counted_ = 0;
};

// A profile batfill can run, or why it cannot.
struct ProfileResult {
  std::optional<Profile> profile;
  std::string problem;
};

// Batsim 5 names the same profiles after batprotocol's tables (DelayProfile, ...), with the
// same fields. A homogeneous parallel task is Batsim 4's only with the default strategy, every
// host computing `cpu` and every link carrying `com`; another strategy keeps its name, which
// read_profile then refuses.
std::string batsim4_profile_type(const std::string& type, const Value& profile) {
  if (type == "DelayProfile") return "delay";
  if (type == "ParallelTaskProfile") return "parallel";
  if (type != "ParallelTaskHomogeneousProfile") return type;
  const Value* strategy = member(profile, "generation_strategy");
  const bool each_value = strategy == nullptr ||
                          (strategy->IsString() &&
                           std::string(strategy->GetString()) == "DefinedAmountsUsedForEachValue");
  return each_value ? "parallel_homogeneous" : type;
}

ProfileResult read_profile(const std::string& name, const Value& value) {
  const std::string label = "profile " + quoted(name);
  if (!value.IsObject()) return {std::nullopt, label + " is not a JSON object"};
  const Value* type = member(value, "type");
  if (type == nullptr || !type->IsString()) {
    return {std::nullopt, label + " has no string 'type'"};
  }
  Profile profile;
  profile.name = name;
  if (const Value* ret = member(value, "ret")) {
    if (!ret->IsInt()) return {std::nullopt, label + ": 'ret' must be an integer"};
    profile.return_code = ret->GetInt();
  }

  const std::string type_name = batsim4_profile_type(type->GetString(), value);
  if (type_name == "delay") {
    const std::optional<double> delay = non_negative_number(member(value, "delay"));
    const std::optional<Time> time = delay ? seconds_to_time(*delay) : std::nullopt;
    if (!time) return {std::nullopt, label + " (delay) needs a number 'delay' >= 0"};
    profile.type = Profile::Type::kDelay;
    profile.delay = *time;
  } else if (type_name == "parallel_homogeneous") {
    const std::optional<double> cpu = non_negative_number(member(value, "cpu"));
    const std::optional<double> com = non_negative_number(member(value, "com"));
    if (!cpu || !com) {
      return {std::nullopt, label + " (parallel_homogeneous) needs numbers 'cpu' and 'com' >= 0"};
    }
    profile.type = Profile::Type::kParallelHomogeneous;
    profile.cpu = *cpu;
    profile.com = *com;
  } else if (type_name == "parallel") {
    std::optional<std::vector<double>> cpu = non_negative_numbers(member(value, "cpu"));
    std::optional<std::vector<double>> com = non_negative_numbers(member(value, "com"));
    if (!cpu || cpu->empty() || !com) {
      return {std::nullopt,
              label + " (parallel) needs arrays 'cpu' (n numbers >= 0) and 'com' (n*n)"};
    }
    if (com->size() != cpu->size() * cpu->size()) {
      return {std::nullopt,
              label + " (parallel) has " + std::to_string(cpu->size()) + " cpu values but " +
                  std::to_string(com->size()) +
                  " com values; it needs n*n = " + std::to_string(cpu->size() * cpu->size())};
    }
    profile.type = Profile::Type::kParallel;
    profile.cpu_per_host = std::move(*cpu);
    profile.com_matrix = std::move(*com);
  } else {
    return {std::nullopt, label + " has type " + quoted(type_name) +
                              ", which batfill's simulator does not support (supported: delay, "
                              "parallel_homogeneous, parallel, and Batsim 5's DelayProfile, "
                              "ParallelTaskProfile, ParallelTaskHomogeneousProfile)"};
  }
  return {std::move(profile), ""};
}

class BatsimJsonReader {
 public:
  explicit BatsimJsonReader(const std::string& path)
      : ids_([this](long index) { return location(index); }) {
    workload_.path = path;
  }

  Workload read(const std::string& text) {
    if (const std::optional<std::size_t> offset = find_excess_json_nesting(text)) {
      throw std::runtime_error(path() + ":" + std::to_string(line_of_offset(text, *offset)) +
                               ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                               " levels at offset " + std::to_string(*offset));
    }
    rapidjson::Document document;
    // Validating: job ids and names are UTF-8, as the protocol needs them (docs/semantics.md
    // docs/semantics.md#batsim-json-workloads).
    const rapidjson::ParseResult parsed = parse_json(document, text);
    if (parsed.IsError()) {
      const std::size_t offset = parsed.Offset();
      throw std::runtime_error(path() + ":" + std::to_string(line_of_offset(text, offset)) +
                               ": JSON syntax error at offset " + std::to_string(offset) + ": " +
                               rapidjson::GetParseError_En(parsed.Code()));
    }
    if (!document.IsObject()) fail("the workload must be a JSON object");

    const Value* nb_res = member(document, "nb_res");
    if (nb_res == nullptr || !nb_res->IsInt() || nb_res->GetInt() <= 0) {
      fail("'nb_res' must be an integer > 0");
    }
    if (nb_res->GetInt() > kMaxMachines) {
      fail("'nb_res' " + std::to_string(nb_res->GetInt()) + " is more than batfill's limit of " +
           std::to_string(kMaxMachines) + " machines");
    }
    workload_.machine_count = nb_res->GetInt();

    const Value* profiles = member(document, "profiles");
    if (profiles == nullptr || !profiles->IsObject()) fail("'profiles' must be a JSON object");
    for (const auto& entry : profiles->GetObject()) {
      const std::string name(entry.name.GetString(), entry.name.GetStringLength());
      ProfileResult result = read_profile(name, entry.value);
      if (result.profile) {
        workload_.profiles.emplace(name, std::move(*result.profile));
      } else {
        unusable_profiles_.emplace(name, std::move(result.problem));
      }
    }

    const Value* jobs = member(document, "jobs");
    if (jobs == nullptr || !jobs->IsArray()) fail("'jobs' must be a JSON array");
    job_lines_ = JobLineFinder::find(text);
    workload_.jobs.reserve(jobs->Size());
    ids_.reserve(jobs->Size());
    for (rapidjson::SizeType i = 0; i < jobs->Size(); ++i) read_job(i, (*jobs)[i]);

    detail::finish_workload(workload_);
    return std::move(workload_);
  }

 private:
  const std::string& path() const { return workload_.path; }

  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error(path() + ": " + why);
  }

  // "path:12: jobs[3]", or "path: jobs[3]" if the line is unknown.
  std::string location(long index) const {
    const auto at = static_cast<std::size_t>(index);
    const std::string line = at < job_lines_.size() ? ":" + std::to_string(job_lines_[at]) : "";
    return path() + line + ": jobs[" + std::to_string(index) + "]";
  }

  void read_job(rapidjson::SizeType index, const Value& value) {
    const std::string location = this->location(index);
    WorkloadJob job;
    job.job.id = "jobs[" + std::to_string(index) + "]";
    job.job.submit_time = previous_submit_;
    if (!value.IsObject()) {
      detail::mark_invalid(job, location, "is not a JSON object");
      claim_id(job, index, location);
      workload_.jobs.push_back(std::move(job));
      return;
    }

    read_id(job, member(value, "id"), location);
    claim_id(job, index, location);
    read_subtime(job, member(value, "subtime"), location);
    read_res(job, member(value, "res"), location);
    read_profile_reference(job, member(value, "profile"), location);
    read_walltime(job, member(value, "walltime"), location);
    job.extra_json = extra_fields(value);
    // Batsim's user field `user`, for predictors that learn per user
    // (docs/semantics.md#predictions-correctors-and-backfill-order).
    if (const Value* user = member(value, "user"); user != nullptr && user->IsInt()) {
      job.job.user = user->GetInt();
    }
    // Its queue, a number or a name (docs/semantics.md#queues---queues).
    if (const Value* queue = member(value, "queue"); queue != nullptr) {
      if (queue->IsString()) job.job.queue = queue->GetString();
      if (queue->IsInt64()) job.job.queue = std::to_string(queue->GetInt64());
    }
    read_resizes(job, member(value, "resize"), location);
    workload_.jobs.push_back(std::move(job));
  }

  // "resize": [{"after": seconds >= 0, "nodes": integer > 0}, ...], each before the walltime
  // (docs/semantics.md#resize-requests-of-running-jobs). Kept in extra_json too: beside a real
  // Batsim, `serve` sees it in JOB_SUBMITTED and warns that it cannot grow an allocation.
  void read_resizes(WorkloadJob& job, const Value* resizes, const std::string& location) {
    if (resizes == nullptr) return;
    if (!resizes->IsArray()) {
      detail::mark_invalid(job, location, "'resize' must be an array of {\"after\", \"nodes\"}");
      return;
    }
    for (rapidjson::SizeType i = 0; i < resizes->Size(); ++i) {
      const Value& entry = (*resizes)[i];
      const std::string key = "'resize[" + std::to_string(i) + "]";
      const Value* after = entry.IsObject() ? member(entry, "after") : nullptr;
      const Value* nodes = entry.IsObject() ? member(entry, "nodes") : nullptr;
      const std::optional<double> seconds = non_negative_number(after);
      const std::optional<Time> at = seconds ? seconds_to_time(*seconds) : std::nullopt;
      if (!at) {
        detail::mark_invalid(job, location, key + ".after' must be " + detail::kResizeAfterLimit);
        continue;
      }
      if (nodes == nullptr || !nodes->IsInt() || nodes->GetInt() <= 0 ||
          nodes->GetInt() > kMaxMachines) {
        detail::mark_invalid(job, location, key + ".nodes' must be " + detail::kResizeNodesLimit);
        continue;
      }
      if (job.job.has_time_limit() && *at >= job.job.time_limit) {
        detail::mark_invalid(job, location,
                             key + ".after' must be before the job's walltime (" +
                                 format_seconds(job.job.time_limit) + " s)");
        continue;
      }
      job.resizes.push_back({*at, nodes->GetInt()});
    }
  }

  void read_id(WorkloadJob& job, const Value* id, const std::string& location) {
    if (id != nullptr && id->IsString() && id->GetStringLength() > 0) {
      job.job.id.assign(id->GetString(), id->GetStringLength());
    } else if (id != nullptr && id->IsInt64()) {
      job.job.id = std::to_string(id->GetInt64());
    } else if (id != nullptr && id->IsUint64()) {
      job.job.id = std::to_string(id->GetUint64());
    } else {
      detail::mark_invalid(job, location, "'id' must be a non-empty string or an integer");
      return;
    }
    // '!' separates the workload name from the job name in Batsim ids ("w0!17").
    if (job.job.id.find('!') != std::string::npos) {
      detail::mark_invalid(job, location, "id " + quoted(job.job.id) + " contains '!'");
      std::replace(job.job.id.begin(), job.job.id.end(), '!', '_');
    }
  }

  void claim_id(WorkloadJob& job, rapidjson::SizeType index, const std::string& location) {
    const detail::IdRegistry::Claim claim = ids_.claim(job.job.id, index);
    job.job.id = claim.id;
    if (!claim.duplicate.empty()) detail::mark_invalid(job, location, claim.duplicate);
  }

  void read_subtime(WorkloadJob& job, const Value* subtime, const std::string& location) {
    const std::optional<double> seconds = non_negative_number(subtime);
    const std::optional<Time> time = seconds ? seconds_to_time(*seconds) : std::nullopt;
    if (!time) {
      detail::mark_invalid(job, location, "'subtime' must be a number >= 0");
      return;
    }
    job.job.submit_time = *time;
    previous_submit_ = *time;
  }

  void read_res(WorkloadJob& job, const Value* res, const std::string& location) {
    if (res == nullptr || !res->IsInt() || res->GetInt() < 0) {
      detail::mark_invalid(job, location, "'res' must be an integer >= 0");
      return;
    }
    job.job.nodes = res->GetInt();
  }

  void read_profile_reference(WorkloadJob& job, const Value* profile, const std::string& location) {
    if (profile == nullptr || !profile->IsString()) {
      detail::mark_invalid(job, location, "'profile' must be a string");
      return;
    }
    job.profile.assign(profile->GetString(), profile->GetStringLength());
    if (const auto unusable = unusable_profiles_.find(job.profile);
        unusable != unusable_profiles_.end()) {
      detail::mark_invalid(job, location, unusable->second);
      return;
    }
    const auto known = workload_.profiles.find(job.profile);
    if (known == workload_.profiles.end()) {
      detail::mark_invalid(job, location,
                           "profile " + quoted(job.profile) + " is not defined in 'profiles'");
      return;
    }
    // Batsim checks this at load: a parallel task has exactly one cpu value per host.
    const Profile& used = known->second;
    if (used.type == Profile::Type::kParallel &&
        used.cpu_per_host.size() != static_cast<std::size_t>(job.job.nodes)) {
      detail::mark_invalid(job, location,
                           "profile " + quoted(job.profile) + " is parallel over " +
                               std::to_string(used.cpu_per_host.size()) +
                               " hosts but the job requests " + std::to_string(job.job.nodes));
    }
  }

  void read_walltime(WorkloadJob& job, const Value* walltime, const std::string& location) {
    if (walltime == nullptr) return;                                  // no limit
    if (walltime->IsNumber() && walltime->GetDouble() == -1) return;  // Batsim's "none"
    const std::optional<Time> limit = walltime->IsNumber() && walltime->GetDouble() > 0
                                          ? seconds_to_time(walltime->GetDouble())
                                          : std::nullopt;
    if (!limit || *limit <= 0) {
      detail::mark_invalid(
          job, location,
          "'walltime' must be a number > 0, or -1 for none (got " + to_json(*walltime) + ")");
      return;
    }
    job.job.time_limit = *limit;
  }

  static std::string extra_fields(const Value& job) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    bool any = false;
    writer.StartObject();
    for (const auto& entry : job.GetObject()) {
      const char* name = entry.name.GetString();
      const bool known =
          std::any_of(std::begin(kJobFields), std::end(kJobFields),
                      [&](const char* field) { return std::strcmp(field, name) == 0; });
      if (known) continue;
      any = true;
      writer.String(name, entry.name.GetStringLength());
      entry.value.Accept(writer);
    }
    writer.EndObject();
    return any ? std::string(buffer.GetString(), buffer.GetSize()) : "";
  }

  Workload workload_;
  std::vector<int> job_lines_;                            // line of jobs[i]
  std::map<std::string, std::string> unusable_profiles_;  // name -> why jobs cannot use it
  detail::IdRegistry ids_;
  Time previous_submit_ = 0;
};

}  // namespace

Workload read_batsim_json(const std::string& path, const std::string& text) {
  return BatsimJsonReader(path).read(text);
}

Profile read_batsim_profile(const std::string& name, const std::string& json) {
  rapidjson::Document document;
  if (parse_json(document, json).IsError()) {
    throw std::invalid_argument("profile " + quoted(name) + " is not JSON");
  }
  ProfileResult result = read_profile(name, document);
  if (!result.profile) throw std::invalid_argument(result.problem);
  return std::move(*result.profile);
}

}  // namespace batfill::workload
