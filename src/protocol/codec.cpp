#include "batfill/protocol/codec.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <set>

#include "json_fields.hpp"
#include "wire_names.hpp"

namespace batfill::protocol {
namespace {

using namespace json_fields;

const std::set<std::string>& known_job_keys() {
  static const std::set<std::string> keys(wire::kJobKeys.begin(), wire::kJobKeys.end());
  return keys;
}

// SIMULATION_BEGINS's config flags of BatsimFeatures.
constexpr std::array<std::pair<const char*, bool BatsimFeatures::*>, 5> kFeatureFlags = {{
    {"profiles-forwarded-on-submission", &BatsimFeatures::profiles_forwarded_on_submission},
    {"dynamic-jobs-enabled", &BatsimFeatures::dynamic_jobs},
    {"dynamic-jobs-acknowledged", &BatsimFeatures::dynamic_jobs_acknowledged},
    {"profile-reuse-enabled", &BatsimFeatures::profile_reuse},
    {"forward-unknown-events", &BatsimFeatures::forward_unknown_events},
}};

SubmittedJob parse_job(const Fields& job) {
  SubmittedJob parsed;
  // Batsim rewrites ids to "w0!7" strings; a bare integer only comes from hand-written input.
  const Value& id = job.require(wire::kJobId, "string");
  parsed.id = id.IsInt() ? std::to_string(id.GetInt()) : job.string(wire::kJobId);
  parsed.subtime = job.time(wire::kJobSubtime);
  parsed.res = job.integer(wire::kJobRes);
  parsed.profile = job.string(wire::kJobProfile);
  parsed.walltime = job.walltime(wire::kJobWalltime);
  rapidjson::Document extras(rapidjson::kObjectType);
  for (const auto& member : job.value().GetObject()) {
    if (known_job_keys().count(member.name.GetString()) != 0) continue;
    extras.AddMember(Value(member.name, extras.GetAllocator()),
                     Value(member.value, extras.GetAllocator()), extras.GetAllocator());
  }
  if (extras.MemberCount() != 0) parsed.user_fields = UserFieldsText{json_text(extras)};
  return parsed;
}

SimulationBegins parse_simulation_begins(const Fields& data) {
  SimulationBegins begins;
  // Batsim 2 had only nb_resources; batsched falls back on it the same way.
  begins.nb_compute_resources = data.machine_count(
      data.find("nb_compute_resources") != nullptr ? "nb_compute_resources" : "nb_resources");
  begins.nb_storage_resources = data.integer_or("nb_storage_resources", 0);
  if (data.find("compute_resources") != nullptr) {
    const Value& resources = data.array("compute_resources");
    for (rapidjson::SizeType i = 0; i < resources.Size(); ++i) {
      const std::string path = data.path() + "compute_resources[" + std::to_string(i) + "].";
      if (!resources[i].IsObject()) data.fail("'" + path + "' must be an object");
      const Fields resource(resources[i], data.where(), path);
      ComputeResource parsed;
      parsed.id = resource.integer("id");
      parsed.name = resource.string("name");
      parsed.state = resource.optional_string("state").value_or("idle");
      if (resource.find("properties") != nullptr) {
        for (const auto& property : resource.object("properties").value().GetObject()) {
          const std::string name(property.name.GetString(), property.name.GetStringLength());
          parsed.properties[name] =
              property.value.IsString()
                  ? std::string(property.value.GetString(), property.value.GetStringLength())
                  : json_text(property.value);
        }
      }
      begins.compute_resources.push_back(std::move(parsed));
    }
  }
  if (data.find("config") != nullptr) {
    const Fields config = data.object("config");
    // sched-config exists since Batsim 4.0 only.
    begins.sched_config = config.optional_string("sched-config").value_or("");
    for (const auto& [flag, member] : kFeatureFlags) {
      const Value* value = config.find(flag);
      begins.features.*member = value != nullptr && value->IsBool() && value->GetBool();
    }
  }
  if (data.find("workloads") != nullptr) {
    const Fields workloads = data.object("workloads");
    for (const auto& workload : workloads.value().GetObject()) {
      begins.workloads[workload.name.GetString()] = workloads.string(workload.name.GetString());
    }
  }
  return begins;
}

// The delay of a forwarded `delay` profile; kNoTimeLimit for any other profile.
Time delay_of(const Fields& profile) {
  const Value* type = profile.find("type");
  const Value* delay = profile.find("delay");
  if (type == nullptr || !type->IsString() || std::string(type->GetString()) != "delay" ||
      delay == nullptr || !delay->IsNumber()) {
    return kNoTimeLimit;
  }
  return profile.time("delay");
}

JobSubmitted parse_job_submitted(const Fields& data) {
  JobSubmitted submitted;
  const std::string job_id = data.string("job_id");
  submitted.job = parse_job(data.object("job"));
  if (submitted.job.id != job_id) {
    data.fail("field 'job_id' is '" + job_id + "' but 'job.id' is '" + submitted.job.id + "'",
              "job_id");
  }
  if (data.find("profile") != nullptr) submitted.forwarded_delay = delay_of(data.object("profile"));
  return submitted;
}

JobCompleted parse_job_completed(const Fields& data) {
  JobCompleted completed;
  completed.job_id = data.string("job_id");
  const std::string state = data.string("job_state");
  const std::optional<JobState> known = wire::value_named(wire::kJobStates, state);
  if (!known) {
    data.fail("field 'job_state' is '" + state + "', not a state Batsim ends a job in (" +
              wire::names_of(wire::kJobStates) + ")");
  }
  completed.state = *known;
  completed.return_code = data.integer_or("return_code", 0);
  if (data.find("alloc") != nullptr) completed.alloc = data.machines("alloc");
  return completed;
}

// A progress tree of JOB_KILLED. Batsim's documentation names the profile `profile`, its code
// `profile_name` (docs/protocol.md#job_killed): either is read.
JobProgress parse_progress(const Fields& tree) {
  JobProgress progress;
  progress.profile_name = tree.string(
      tree.find("profile_name") != nullptr || tree.find("profile") == nullptr ? "profile_name"
                                                                              : "profile");
  if (tree.find("current_task_index") == nullptr) {
    progress.progress = tree.number("progress");
    return progress;
  }
  progress.current_task_index = tree.integer("current_task_index");
  if (tree.find("current_task") != nullptr) {
    progress.current_task.push_back(parse_progress(tree.object("current_task")));
  }
  return progress;
}

JobKilled parse_job_killed(const Fields& data) {
  JobKilled killed{data.strings("job_ids"), {}};
  if (data.find("job_progress") == nullptr) return killed;
  const Fields progress = data.object("job_progress");
  for (const auto& member : progress.value().GetObject()) {
    const std::string job_id(member.name.GetString(), member.name.GetStringLength());
    killed.progress.emplace_back(job_id, parse_progress(progress.object(job_id.c_str())));
  }
  return killed;
}

KillJob parse_kill_job(const Fields& data) {
  KillJob kill{data.strings("job_ids")};
  if (kill.job_ids.empty()) data.fail("field 'job_ids' is empty (Batsim aborts on it)", "job_ids");
  return kill;
}

// The job object names the job in full ("dyn!7") or by its name in the workload ("7"), as
// batsched writes it; the job holds the full id.
RegisterJob parse_register_job(const Fields& data) {
  RegisterJob registered{parse_job(data.object("job"))};
  const std::string job_id = data.string("job_id");
  const std::size_t bang = job_id.find('!');
  if (bang == std::string::npos) {
    data.fail("field 'job_id' is '" + job_id + "', not 'workload!name'", "job_id");
  }
  if (registered.job.id != job_id && registered.job.id != job_id.substr(bang + 1)) {
    data.fail("field 'job_id' is '" + job_id + "' but 'job.id' is '" + registered.job.id + "'",
              "job_id");
  }
  registered.job.id = job_id;
  return registered;
}

RegisterProfile parse_register_profile(const Fields& data) {
  return RegisterProfile{data.string("workload_name"), data.string("profile_name"),
                         json_text(data.object("profile").value())};
}

SetJobMetadata parse_set_job_metadata(const Fields& data) {
  return SetJobMetadata{data.string("job_id"), data.string("metadata")};
}

bool changes_availability(Notification kind) {
  return kind == Notification::kMachinesUnavailable || kind == Notification::kMachinesAvailable;
}

BatsimNotify parse_notify(const Fields& data) {
  BatsimNotify notify;
  const std::string type = data.string("type");
  const std::optional<Notification> known = wire::value_named(wire::kNotifications, type);
  if (!known) {
    notify.other = type;
    notify.event_json = json_text(data.value());
    return notify;
  }
  notify.kind = *known;
  if (changes_availability(notify.kind)) notify.resources = data.machines("resources");
  return notify;
}

// Batsim queries estimate_waiting_time; a scheduler queries consumed_energy, which takes no
// argument.
EventData parse_query(const Fields& data) {
  const Fields requests = data.object("requests");
  if (requests.find(wire::kConsumedEnergy) != nullptr) {
    if (requests.value().MemberCount() != 1 ||
        !requests.object(wire::kConsumedEnergy).value().ObjectEmpty()) {
      data.fail("field 'requests' must be exactly {\"" + std::string(wire::kConsumedEnergy) +
                "\": {}}, got " + json_text(requests.value()));
    }
    return ConsumedEnergyQuery{};
  }
  if (requests.find(wire::kEstimateWaitingTime) == nullptr) {
    data.fail("unsupported request in 'requests': " + json_text(requests.value()) +
              " (the queries are " + wire::kEstimateWaitingTime + " and " + wire::kConsumedEnergy +
              ")");
  }
  const Fields query = requests.object(wire::kEstimateWaitingTime);
  EstimateWaitingTimeQuery parsed;
  parsed.job = parse_job(query.object("job"));
  const std::string job_id = query.string("job_id");
  if (parsed.job.id != job_id) {
    data.fail("field " + query.name("job_id") + " is '" + job_id + "' but the job's id is '" +
              parsed.job.id + "'");
  }
  return parsed;
}

// A power state as Batsim writes it: the decimal text of a pstate number.
int pstate_of(const Fields& data) {
  const std::string text = data.string("state");
  int pstate = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), pstate);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || pstate < 0) {
    data.fail("field " + data.name("state") +
              " must be a pstate number written as a string, got '" + text + "'");
  }
  return pstate;
}

// Batsim aborts on a power decision for no machine.
MachineSet power_resources(const Fields& data) {
  MachineSet resources = data.machines("resources");
  if (resources.empty()) data.fail("field " + data.name("resources") + " is empty");
  return resources;
}

ResourceStateChanged parse_resource_state_changed(const Fields& data) {
  return ResourceStateChanged{power_resources(data), pstate_of(data), PowerChange::kByPlatform};
}

SetResourceState parse_set_resource_state(const Fields& data) {
  return SetResourceState{power_resources(data), pstate_of(data), PowerChange::kByPlatform};
}

// The scheduler's ANSWER carries estimate_waiting_time; Batsim's carries consumed_energy.
EventData parse_answer(const Fields& data) {
  if (data.find(wire::kEstimateWaitingTime) == nullptr) {
    const Value& joules = data.require(wire::kConsumedEnergy, "number");
    if (!joules.IsNumber()) {
      data.fail("field " + data.name(wire::kConsumedEnergy) + " must be a number, got " +
                json_text(joules));
    }
    return ConsumedEnergyAnswer{joules.GetDouble()};
  }
  const Fields estimate = data.object(wire::kEstimateWaitingTime);
  EstimateWaitingTimeAnswer answer;
  answer.job_id = estimate.string("job_id");
  answer.estimated_waiting_time = estimate.time("estimated_waiting_time");
  return answer;
}

ExecuteJob parse_execute_job(const Fields& data) {
  ExecuteJob execute;
  execute.job_id = data.string("job_id");
  execute.alloc = data.machines("alloc");
  if (execute.alloc.empty()) data.fail("field 'alloc' is empty (Batsim aborts on it)", "alloc");
  return execute;
}

EventData parse_data(std::string_view type, const Fields& data) {
  using wire::event_type;
  if (type == event_type<SimulationBegins>()) return parse_simulation_begins(data);
  if (type == event_type<JobSubmitted>()) return parse_job_submitted(data);
  if (type == event_type<JobCompleted>()) return parse_job_completed(data);
  if (type == event_type<JobKilled>()) return parse_job_killed(data);
  if (type == event_type<RequestedCall>()) return RequestedCall{};
  if (type == event_type<BatsimNotify>()) return parse_notify(data);
  if (type == event_type<EstimateWaitingTimeQuery>()) return parse_query(data);
  if (type == event_type<ResourceStateChanged>()) return parse_resource_state_changed(data);
  if (type == event_type<ConsumedEnergyAnswer>()) return parse_answer(data);
  if (type == event_type<SimulationEnds>()) return SimulationEnds{};
  if (type == event_type<ExecuteJob>()) return parse_execute_job(data);
  if (type == event_type<RejectJob>()) return RejectJob{data.string("job_id")};
  if (type == event_type<CallMeLater>()) return CallMeLater{data.time("timestamp")};
  if (type == event_type<SetResourceState>()) return parse_set_resource_state(data);
  if (type == event_type<KillJob>()) return parse_kill_job(data);
  if (type == event_type<RegisterJob>()) return parse_register_job(data);
  if (type == event_type<RegisterProfile>()) return parse_register_profile(data);
  if (type == event_type<SetJobMetadata>()) return parse_set_job_metadata(data);
  data.fail("unknown event type '" + std::string(type) + "'");
}

Event parse_event(const Value& value, rapidjson::SizeType index) {
  Where where{index, {}};
  if (!value.IsObject()) {
    throw ProtocolError("must be an object, got " + json_text(value)).in_event(index, "");
  }
  const Fields event(value, where);
  const Value& type = event.require("type", "string");
  if (!type.IsString()) event.string("type");  // fails naming the field
  where.type = std::string_view(type.GetString(), type.GetStringLength());
  Event parsed;
  parsed.timestamp = event.time("timestamp");
  // Fields inside `data` are named without the "data." prefix, as the protocol tables do.
  parsed.data = parse_data(where.type, Fields(event.object("data").value(), where));
  return parsed;
}

// ---- Writing ---------------------------------------------------------------------------------

void write_job(Writer& writer, const SubmittedJob& job) {
  writer.StartObject();
  write_string(writer, wire::kJobId, job.id);
  writer.Key(wire::kJobSubtime);
  write_time(writer, job.subtime);
  writer.Key(wire::kJobRes);
  writer.Int(job.res);
  write_string(writer, wire::kJobProfile, job.profile);
  if (job.walltime != kNoTimeLimit) {
    writer.Key(wire::kJobWalltime);
    write_time(writer, job.walltime);
  }
  if (const auto* typed = std::get_if<TypedUserFields>(&job.user_fields)) {
    write_typed_user_fields(writer, *typed);
  } else {
    rapidjson::Document extras;
    const std::string& text = std::get<UserFieldsText>(job.user_fields).json;
    if (parse_json(extras, text).IsError() || !extras.IsObject()) {
      throw std::invalid_argument("extra fields of job '" + job.id + "' are not a JSON object");
    }
    for (const auto& member : extras.GetObject()) {
      if (known_job_keys().count(member.name.GetString()) != 0) continue;
      writer.Key(member.name.GetString(), member.name.GetStringLength());
      member.value.Accept(writer);
    }
  }
  writer.EndObject();
}

// In Batsim 4.2.1's order (captured messages). Redis, which batfill does not simulate, is
// reported off.
void write_begins_config(Writer& writer, const SimulationBegins& begins) {
  writer.StartObject();
  writer.Key("redis-enabled");
  writer.Bool(false);
  write_string(writer, "redis-hostname", "127.0.0.1");
  writer.Key("redis-port");
  writer.Int(6379);
  write_string(writer, "redis-prefix", "default");
  for (const auto& [flag, member] : kFeatureFlags) {
    if (member == &BatsimFeatures::forward_unknown_events) continue;
    writer.Key(flag);
    writer.Bool(begins.features.*member);
  }
  write_string(writer, "sched-config", begins.sched_config);
  writer.Key("forward-unknown-events");
  writer.Bool(begins.features.forward_unknown_events);
  writer.EndObject();
}

void write_compute_resource(Writer& writer, const ComputeResource& resource) {
  writer.StartObject();
  writer.Key("id");
  writer.Int(resource.id);
  write_string(writer, "name", resource.name);
  write_string(writer, "state", resource.state);
  writer.Key("properties");
  writer.StartObject();
  // Batsim always sends a role, possibly "". Keys in sorted order, the role among them, so that
  // a message read back writes the same text.
  std::map<std::string, std::string> properties = resource.properties;
  properties.emplace("role", "");
  for (const auto& [key, value] : properties) {
    writer.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
    if (!writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()))) {
      throw std::invalid_argument("property '" + key + "' is not valid UTF-8");
    }
  }
  writer.EndObject();
  writer.Key("zone_properties");
  writer.StartObject();
  writer.EndObject();
  writer.EndObject();
}

// The v4 SIMULATION_BEGINS as a real Batsim 4.2.1 sends it (captured messages): an external
// scheduler written against Batsim sees the keys it expects.
void write_simulation_begins(Writer& writer, const SimulationBegins& begins) {
  writer.StartObject();
  writer.Key("nb_resources");
  writer.Int(begins.nb_compute_resources + begins.nb_storage_resources);
  writer.Key("nb_compute_resources");
  writer.Int(begins.nb_compute_resources);
  writer.Key("nb_storage_resources");
  writer.Int(begins.nb_storage_resources);
  writer.Key("allow_compute_sharing");
  writer.Bool(false);
  writer.Key("allow_storage_sharing");
  writer.Bool(true);
  writer.Key("config");
  write_begins_config(writer, begins);
  writer.Key("compute_resources");
  writer.StartArray();
  for (const ComputeResource& resource : begins.compute_resources) {
    write_compute_resource(writer, resource);
  }
  writer.EndArray();
  writer.Key("storage_resources");
  writer.StartArray();
  writer.EndArray();
  writer.Key("workloads");
  writer.StartObject();
  for (const auto& [name, path] : begins.workloads) write_string(writer, name.c_str(), path);
  writer.EndObject();
  writer.Key("profiles");
  writer.StartObject();
  writer.EndObject();
  writer.EndObject();
}

struct DataWriter {
  Writer& w;

  void operator()(const SimulationBegins& e) const { write_simulation_begins(w, e); }
  void operator()(const JobSubmitted& e) const {
    w.StartObject();
    write_string(w, "job_id", e.job.id);
    w.Key("job");
    write_job(w, e.job);
    if (e.forwarded_delay != kNoTimeLimit) {
      w.Key("profile");
      write_raw_object(w,
                       "{\"type\":\"delay\",\"delay\":" + format_seconds(e.forwarded_delay) + "}",
                       "forwarded profile");
    }
    w.EndObject();
  }
  void operator()(const JobCompleted& e) const {
    w.StartObject();
    write_string(w, "job_id", e.job_id);
    write_string(w, "job_state", wire::name_of(wire::kJobStates, e.state));
    w.Key("return_code");
    w.Int(e.return_code);
    write_string(w, "alloc", to_string(e.alloc));
    w.EndObject();
  }
  void operator()(const JobKilled& e) const {
    w.StartObject();
    write_strings(w, "job_ids", e.job_ids);
    // Batsim 4 always sends job_progress, possibly empty.
    w.Key("job_progress");
    w.StartObject();
    for (const auto& [job_id, progress] : e.progress) {
      w.Key(job_id.data(), static_cast<rapidjson::SizeType>(job_id.size()));
      progress_tree(progress);
    }
    w.EndObject();
    w.EndObject();
  }
  void progress_tree(const JobProgress& progress) const {
    w.StartObject();
    write_string(w, "profile_name", progress.profile_name);
    if (progress.current_task_index) {
      w.Key("current_task_index");
      w.Int(*progress.current_task_index);
      for (const JobProgress& task : progress.current_task) {
        w.Key("current_task");
        progress_tree(task);
      }
    } else {
      w.Key("progress");
      w.Double(progress.progress);
    }
    w.EndObject();
  }
  void operator()(const RequestedCall&) const { empty(); }
  void operator()(const BatsimNotify& e) const {
    if (e.kind == Notification::kOther && !e.event_json.empty()) {
      write_raw_object(w, e.event_json, ("generic event '" + e.other + "'").c_str());
      return;
    }
    w.StartObject();
    write_string(w, "type", notification_name(e));
    if (changes_availability(e.kind)) write_string(w, "resources", to_string(e.resources));
    w.EndObject();
  }
  void operator()(const EstimateWaitingTimeQuery& e) const {
    w.StartObject();
    w.Key("requests");
    w.StartObject();
    w.Key(wire::kEstimateWaitingTime);
    w.StartObject();
    write_string(w, "job_id", e.job.id);
    w.Key("job");
    write_job(w, e.job);
    w.EndObject();
    w.EndObject();
    w.EndObject();
  }
  void operator()(const ResourceStateChanged& e) const { power_state(e.resources, e.pstate); }
  void operator()(const SetResourceState& e) const { power_state(e.resources, e.pstate); }
  void operator()(const ConsumedEnergyAnswer& e) const {
    w.StartObject();
    w.Key(wire::kConsumedEnergy);
    w.Double(e.joules);
    w.EndObject();
  }
  void operator()(const ConsumedEnergyQuery&) const {
    w.StartObject();
    w.Key("requests");
    w.StartObject();
    w.Key(wire::kConsumedEnergy);
    empty();
    w.EndObject();
    w.EndObject();
  }
  void operator()(const SimulationEnds&) const { empty(); }
  // Decisions: exactly the members Batsim accepts (docs/protocol.md#execute_job,
  // docs/protocol.md#quirks-of-a-real-batsim-421).
  void operator()(const ExecuteJob& e) const {
    if (e.alloc.empty()) {
      throw std::invalid_argument("EXECUTE_JOB of '" + e.job_id + "' with an empty allocation");
    }
    w.StartObject();
    write_string(w, "job_id", e.job_id);
    write_string(w, "alloc", to_string(e.alloc));
    w.EndObject();
  }
  void operator()(const RejectJob& e) const {
    w.StartObject();
    write_string(w, "job_id", e.job_id);
    w.EndObject();
  }
  void operator()(const KillJob& e) const {
    if (e.job_ids.empty()) throw std::invalid_argument("KILL_JOB of no job");
    w.StartObject();
    write_strings(w, "job_ids", e.job_ids);
    w.EndObject();
  }
  void operator()(const RegisterProfile& e) const {
    w.StartObject();
    write_string(w, "workload_name", e.workload_name);
    write_string(w, "profile_name", e.profile_name);
    w.Key("profile");
    write_raw_object(w, e.profile_json, ("profile '" + e.profile_name + "'").c_str());
    w.EndObject();
  }
  void operator()(const RegisterJob& e) const {
    w.StartObject();
    write_string(w, "job_id", e.job.id);
    w.Key("job");
    write_job(w, e.job);
    w.EndObject();
  }
  void operator()(const SetJobMetadata& e) const {
    if (e.metadata.find('"') != std::string::npos) {
      throw std::invalid_argument("metadata of '" + e.job_id +
                                  "' holds a '\"' (Batsim aborts on it)");
    }
    w.StartObject();
    write_string(w, "job_id", e.job_id);
    write_string(w, "metadata", e.metadata);
    w.EndObject();
  }
  void operator()(const CallMeLater& e) const {
    w.StartObject();
    w.Key("timestamp");
    write_time(w, e.at);
    w.EndObject();
  }
  void operator()(const EstimateWaitingTimeAnswer& e) const {
    w.StartObject();
    w.Key(wire::kEstimateWaitingTime);
    w.StartObject();
    write_string(w, "job_id", e.job_id);
    w.Key("estimated_waiting_time");
    write_time(w, e.estimated_waiting_time);
    w.EndObject();
    w.EndObject();
  }

  void power_state(const MachineSet& resources, int pstate) const {
    if (resources.empty()) throw std::invalid_argument("a power state for no machine");
    w.StartObject();
    write_string(w, "resources", to_string(resources));
    write_string(w, "state", std::to_string(pstate));
    w.EndObject();
  }
  void empty() const {
    w.StartObject();
    w.EndObject();
  }
};

}  // namespace

Message parse_message(std::string_view json) {
  return read_document(json, [](const Value& document) {
    const Where envelope_where;
    const Fields envelope(document, envelope_where);
    Message message;
    message.now = envelope.time("now");
    const Value& events = envelope.array("events");
    for (rapidjson::SizeType i = 0; i < events.Size(); ++i) {
      message.events.push_back(parse_event(events[i], i));
    }
    return message;
  });
}

std::string job_state_name(JobState state) { return wire::name_of(wire::kJobStates, state); }

std::string notification_name(const BatsimNotify& notification) {
  if (notification.kind == Notification::kOther) return notification.other;
  return wire::name_of(wire::kNotifications, notification.kind);
}

bool has_batsim4_envelope(std::string_view json) {
  rapidjson::Document document;
  if (parse_json(document, json).IsError() || !document.IsObject()) return false;
  const auto events = document.FindMember("events");
  if (events == document.MemberEnd() || !events->value.IsArray()) return false;
  for (const Value& event : events->value.GetArray()) {
    if (!event.IsObject() || !event.HasMember("type")) return false;
  }
  return true;
}

std::string write_message(const Message& message) {
  rapidjson::StringBuffer buffer;
  Writer writer(buffer);
  writer.StartObject();
  writer.Key("now");
  write_time(writer, message.now);
  writer.Key("events");
  writer.StartArray();
  for (const Event& event : message.events) {
    writer.StartObject();
    writer.Key("timestamp");
    write_time(writer, event.timestamp);
    write_string(writer, "type", event_type_name(event.data));
    writer.Key("data");
    std::visit(DataWriter{writer}, event.data);
    writer.EndObject();
  }
  writer.EndArray();
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string write_stop_notice(const std::string& what) {
  BatsimNotify notice;
  notice.other = stop_notice_text(what);
  Message message;
  message.events.push_back(Event{0, notice});
  return write_message(message);
}

}  // namespace batfill::protocol
