#include "batfill/protocol/batsim5_codec.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <type_traits>

#include "json_fields.hpp"
#include "name_table.hpp"

namespace batfill::protocol::batsim5 {
namespace {

using namespace json_fields;

// The names Batsim 5 gives the model's values (messages.hpp), each written once.

// batprotocol's FinalJobState, in the schema's order: flatbuffers writes an enum by name, or by
// number when it has none.
constexpr std::array<std::pair<JobState, const char*>, 5> kFinalJobStates = {{
    {JobState::kSucceeded, "COMPLETED_SUCCESSFULLY"},
    {JobState::kFailed, "COMPLETED_FAILED"},
    {JobState::kWalltimeReached, "COMPLETED_WALLTIME_REACHED"},
    {JobState::kKilled, "COMPLETED_KILLED"},
    {JobState::kRejected, "REJECTED"},
}};

// The events that are notifications; machine availability has no event of its own but a
// generic external event whose data's type is one of these (Batsim's documentation of its
// external events).
constexpr std::array<std::pair<Notification, const char*>, 3> kNotificationEvents = {{
    {Notification::kNoMoreStaticJobs, "AllStaticJobsHaveBeenSubmittedEvent"},
    {Notification::kNoMoreExternalEvents, "AllStaticExternalEventsHaveBeenInjectedEvent"},
    {Notification::kRegistrationFinished, "FinishRegistrationEvent"},
}};
constexpr std::array<std::pair<Notification, const char*>, 2> kMachineEvents = {{
    {Notification::kMachinesUnavailable, "machine_unavailable"},
    {Notification::kMachinesAvailable, "machine_available"},
}};

// The event that carries T; "" for a value no Batsim 5 event carries.
template <typename T>
constexpr const char* event_type() {
  if constexpr (std::is_same_v<T, SimulationBegins>) return "SimulationBeginsEvent";
  if constexpr (std::is_same_v<T, JobSubmitted>) return "JobSubmittedEvent";
  if constexpr (std::is_same_v<T, JobCompleted>) return "JobCompletedEvent";
  if constexpr (std::is_same_v<T, JobKilled>) return "JobsKilledEvent";
  if constexpr (std::is_same_v<T, RequestedCall>) return "RequestedCallEvent";
  if constexpr (std::is_same_v<T, SimulationEnds>) return "SimulationEndsEvent";
  if constexpr (std::is_same_v<T, ExecuteJob>) return "ExecuteJobEvent";
  if constexpr (std::is_same_v<T, RejectJob>) return "RejectJobEvent";
  if constexpr (std::is_same_v<T, CallMeLater>) return "CallMeLaterEvent";
  if constexpr (std::is_same_v<T, KillJob>) return "KillJobsEvent";
  if constexpr (std::is_same_v<T, RegisterJob>) return "RegisterJobEvent";
  if constexpr (std::is_same_v<T, RegisterProfile>) return "RegisterProfileEvent";
  return "";
}
// batprotocol's other events batfill names: the external event machine availability comes in
// (its data's type one of kMachineEvents, Batsim's documentation of its external events), and
// the EDC's hello.
constexpr const char* kExternalEvent = "ExternalEventOccurredEvent";
constexpr const char* kGenericExternalEvent = "GenericExternalEvent";
constexpr const char* kHelloEvent = "EDCHelloEvent";
// Events left out of the message: probes only answer requests batfill never makes, Batsim's own
// hello only informs.
constexpr std::array<const char*, 2> kIgnoredEvents = {"ProbeDataEmittedEvent", "BatsimHelloEvent"};

// The power decisions and their acknowledgements, one pair per kind of change, and the field
// each names the pstate with (batprotocol's "Host power management").
struct PowerEvents {
  PowerChange change;
  const char* decision;
  const char* acknowledgement;
  const char* pstate_field;
};
constexpr std::array<PowerEvents, 2> kPowerEvents = {{
    {PowerChange::kComputationPState, "ChangeHostsPStateEvent", "HostsPStateChangedEvent",
     "pstate"},
    {PowerChange::kTurnOnOff, "TurnOnOffHostsEvent", "HostsTurnedOnOffEvent", "state"},
}};
constexpr const char* kPowerHosts = "host_ids";

const PowerEvents* power_events_of(PowerChange change) {
  for (const PowerEvents& events : kPowerEvents) {
    if (events.change == change) return &events;
  }
  return nullptr;
}

// ---- Parsing ---------------------------------------------------------------------------------

// The table name of union field `field`: flatbuffers writes it as `field_type`.
std::string_view union_type(const Fields& fields, const std::string& field) {
  return fields.string_view((field + "_type").c_str());
}

// `extra_data` is the user's text; when it is a JSON object it holds the user fields, as a
// Batsim 4 job object does, and is kept verbatim (messages.hpp). Other text holds none.
void read_extra_data(const Fields& job, SubmittedJob& parsed) {
  const std::optional<std::string> extra = job.optional_string("extra_data");
  if (!extra || extra->empty()) return;
  rapidjson::Document document;
  if (parse_json(document, *extra).IsError() || !document.IsObject()) return;
  parsed.user_fields = UserFieldsText{*extra};
}

Time forwarded_delay(const Fields& profile_and_id) {
  if (union_type(profile_and_id, "profile") != "DelayProfile") return kNoTimeLimit;
  return profile_and_id.object("profile").time("delay");
}

// The job_id and Job table of JobSubmittedEvent and RegisterJobEvent.
SubmittedJob parse_job(const Fields& event) {
  SubmittedJob job;
  job.id = event.string("job_id");
  const Fields fields = event.object("job");
  job.res = fields.count_or("resource_request", 0);
  job.walltime = fields.walltime("walltime");
  job.profile = fields.optional_string("profile_id").value_or("");
  read_extra_data(fields, job);
  return job;
}

JobSubmitted parse_job_submitted(const Fields& event) {
  JobSubmitted submitted;
  SubmittedJob& job = submitted.job;
  job = parse_job(event);
  const Value* subtime = event.find("submission_time");
  job.subtime = subtime == nullptr ? 0 : event.time("submission_time");
  if (const Value* profile = event.find("profile"); profile != nullptr && !profile->IsNull()) {
    submitted.forwarded_delay = forwarded_delay(event.object("profile"));
  }
  return submitted;
}

std::vector<ComputeResource> parse_hosts(const Fields& event, const char* key) {
  std::vector<ComputeResource> hosts;
  const Value* array = event.find(key);
  if (array == nullptr || array->IsNull()) return hosts;
  const Value& list = event.array(key);
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
    const std::string path = event.path() + key + "[" + std::to_string(i) + "].";
    if (!list[i].IsObject()) event.fail("'" + path + "' must be an object");
    const Fields host(list[i], event.where(), path);
    ComputeResource parsed;
    parsed.id = host.count_or("id", 0);
    parsed.name = host.string("name");
    if (const Value* properties = host.find("properties"); properties != nullptr) {
      for (const Value& property : host.array("properties").GetArray()) {
        if (!property.IsObject()) {
          host.fail("field " + host.name("properties") + " must hold objects");
        }
        const Fields pair(property, event.where(), path + "properties.");
        parsed.properties[pair.string("key")] = pair.string("value");
      }
    }
    hosts.push_back(std::move(parsed));
  }
  return hosts;
}

// Storage hosts are not compute nodes: only computation_hosts become batfill's machines.
SimulationBegins parse_simulation_begins(const Fields& event) {
  SimulationBegins begins;
  begins.nb_compute_resources = event.find("computation_host_number") == nullptr
                                    ? 0
                                    : event.machine_count("computation_host_number");
  begins.nb_storage_resources = event.count_or("storage_host_number", 0);
  begins.compute_resources = parse_hosts(event, "computation_hosts");
  if (const Value* workloads = event.find("workloads"); workloads != nullptr) {
    for (const Value& workload : event.array("workloads").GetArray()) {
      if (!workload.IsObject()) event.fail("field 'workloads' must hold objects", "workloads");
      const Fields named(workload, event.where(), "workloads.");
      begins.workloads[named.string("name")] = named.string("filename");
    }
  }
  return begins;
}

JobCompleted parse_job_completed(const Fields& event) {
  JobCompleted completed;
  completed.job_id = event.string("job_id");
  const Value* state = event.find("state");
  std::optional<JobState> known = kFinalJobStates[0].first;
  if (state != nullptr && state->IsString()) {
    known = wire::value_named(kFinalJobStates, event.string_view("state"));
  } else if (state != nullptr) {
    known.reset();
    if (state->IsUint() && state->GetUint() < kFinalJobStates.size()) {
      known = kFinalJobStates[state->GetUint()].first;
    }
  }
  if (!known) event.fail("field 'state' is not a FinalJobState: " + json_text(*state), "state");
  completed.state = *known;
  // A uint32 on the wire: Batsim's -1 (walltime reached) arrives as 4294967295.
  if (const Value* code = event.find("return_code"); code != nullptr) {
    if (!code->IsUint())
      event.fail("field 'return_code' must be a uint32, got " + json_text(*code), "return_code");
    completed.return_code = static_cast<int>(static_cast<std::int32_t>(code->GetUint()));
  }
  return completed;
}

// A KillProgressWrapper: atomic and sequential profiles, the two Batsim 4 reports.
JobProgress parse_kill_progress(const Fields& wrapper) {
  const std::string_view type = union_type(wrapper, "kill_progress");
  const Fields tree = wrapper.object("kill_progress");
  JobProgress progress;
  progress.profile_name = tree.string("profile_id");
  if (type == "KillProgressAtomicProfile") {
    const Value* fraction = tree.find("progress");
    progress.progress = fraction == nullptr ? 0 : tree.number("progress");
  } else if (type == "KillProgressSequentialProfile") {
    progress.current_task_index = tree.count_or("current_task_index", 0);
    progress.current_task.push_back(parse_kill_progress(tree.object("current_task_progress")));
  } else {
    wrapper.fail("kill progress '" + std::string(type) + "' is not supported by batfill");
  }
  return progress;
}

JobKilled parse_jobs_killed(const Fields& event) {
  JobKilled killed{event.strings("job_ids"), {}};
  if (event.find("progresses") == nullptr) return killed;
  const Value& progresses = event.array("progresses");
  for (rapidjson::SizeType i = 0; i < progresses.Size(); ++i) {
    const std::string path = "progresses[" + std::to_string(i) + "].";
    if (!progresses[i].IsObject()) event.fail("'" + path + "' must be an object");
    const Fields entry(progresses[i], event.where(), path);
    killed.progress.emplace_back(entry.string("job_id"),
                                 parse_kill_progress(entry.object("wrapper")));
  }
  return killed;
}

// "workload!name", as batprotocol names a profile; Batsim 4 names the two apart.
RegisterProfile parse_register_profile(const Fields& event) {
  const Fields profile = event.object("profile");
  const std::string id = profile.string("id");
  const std::size_t bang = id.find('!');
  if (bang == std::string::npos) {
    profile.fail_at("id",
                    "field " + profile.name("id") + " must be 'workload!name', got '" + id + "'");
  }
  if (union_type(profile, "profile") != "DelayProfile") {
    profile.fail("only a DelayProfile can be registered with batfill's stand-in");
  }
  const Time delay = profile.object("profile").time("delay");
  return RegisterProfile{id.substr(0, bang), id.substr(bang + 1),
                         "{\"type\":\"delay\",\"delay\":" + format_seconds(delay) + "}"};
}

// A generic external event: machine availability when its data says so, else nothing batfill
// reads (returned as an empty type, for the caller to list as ignored).
BatsimNotify parse_external_event(const Fields& event) {
  BatsimNotify notify;
  const Value* type = event.find("external_event_type");
  if (type == nullptr || !type->IsString() ||
      std::string_view(type->GetString()) != kGenericExternalEvent) {
    return notify;
  }
  const std::string data = event.object("external_event").string("data");
  rapidjson::Document document;
  if (parse_json(document, data).IsError() || !document.IsObject()) return notify;
  const Fields fields(document, event.where(), "external_event.data.");
  const Value* kind = fields.find("type");
  if (kind == nullptr || !kind->IsString()) return notify;
  const std::optional<Notification> known = wire::value_named(
      kMachineEvents, std::string_view(kind->GetString(), kind->GetStringLength()));
  if (!known) return notify;
  notify.kind = *known;
  notify.resources = fields.machines("resources");
  return notify;
}

ExecuteJob parse_execute_job(const Fields& event) {
  ExecuteJob execute;
  execute.job_id = event.string("job_id");
  const Fields allocation = event.object("allocation");
  execute.alloc = allocation.machines("host_allocation");
  if (execute.alloc.empty())
    event.fail("field 'allocation.host_allocation' is empty", "allocation.host_allocation");
  if (union_type(allocation, "executor_placement") !=
      "PredefinedExecutorPlacementStrategyWrapper") {
    event.fail("only a predefined executor placement is supported by batfill's stand-in");
  }
  for (const char* key : {"profile_allocation_override", "storage_placement"}) {
    const Value* overrides = event.find(key);
    if (overrides != nullptr && !(overrides->IsArray() && overrides->Empty())) {
      event.fail(std::string("field '") + key + "' is not supported by batfill's stand-in");
    }
  }
  return execute;
}

CallMeLater parse_call_me_later(const Fields& event) {
  if (union_type(event, "when") != "OneShot") {
    event.fail("only a OneShot 'when' is supported by batfill's stand-in");
  }
  const Fields when = event.object("when");
  const Value& time = when.require("time", "integer");
  if (!time.IsUint64()) when.fail("field " + when.name("time") + " must be a uint64");
  const std::string unit = when.optional_string("time_unit").value_or("Second");
  if (unit != "Second" && unit != "Millisecond") {
    when.fail("field " + when.name("time_unit") + " must be Second or Millisecond");
  }
  const Time per_unit = unit == "Second" ? kMicrosecondsPerSecond : 1000;
  const std::uint64_t count = time.GetUint64();
  if (static_cast<Time>(count) > kMaxTime / per_unit)
    when.fail("field 'when.time' is too large", "when.time");
  return CallMeLater{static_cast<Time>(count) * per_unit};
}

// A power decision or acknowledgement, when `type` names one.
std::optional<EventData> parse_power_event(std::string_view type, const Fields& event) {
  for (const PowerEvents& names : kPowerEvents) {
    const bool decision = type == names.decision;
    if (!decision && type != names.acknowledgement) continue;
    const MachineSet hosts = event.machines(kPowerHosts);
    if (hosts.empty()) event.fail("field " + event.name(kPowerHosts) + " is empty");
    const int pstate = event.count_or(names.pstate_field, 0);
    if (decision) return SetResourceState{hosts, pstate, names.change};
    return ResourceStateChanged{hosts, pstate, names.change};
  }
  return std::nullopt;
}

// The message value of one event; std::nullopt for an event batfill leaves out.
std::optional<EventData> parse_event_data(std::string_view type, const Fields& event) {
  if (type == event_type<SimulationBegins>()) return parse_simulation_begins(event);
  if (type == event_type<JobSubmitted>()) return parse_job_submitted(event);
  if (type == event_type<JobCompleted>()) return parse_job_completed(event);
  if (type == event_type<JobKilled>()) return parse_jobs_killed(event);
  if (type == event_type<RequestedCall>()) return RequestedCall{};
  if (const std::optional<Notification> notification =
          wire::value_named(kNotificationEvents, type)) {
    return BatsimNotify{*notification, {}, {}, {}};
  }
  if (type == kExternalEvent) {
    BatsimNotify notify = parse_external_event(event);
    if (notify.kind == Notification::kOther) return std::nullopt;
    return notify;
  }
  if (type == event_type<SimulationEnds>()) return SimulationEnds{};
  if (type == event_type<ExecuteJob>()) return parse_execute_job(event);
  if (type == event_type<RejectJob>()) return RejectJob{event.string("job_id")};
  if (type == event_type<CallMeLater>()) return parse_call_me_later(event);
  if (type == event_type<KillJob>()) {
    KillJob kill{event.strings("job_ids")};
    if (kill.job_ids.empty()) event.fail("field 'job_ids' is empty", "job_ids");
    return kill;
  }
  if (type == event_type<RegisterJob>()) return RegisterJob{parse_job(event)};
  if (type == event_type<RegisterProfile>()) return parse_register_profile(event);
  if (std::optional<EventData> power = parse_power_event(type, event)) return power;
  if (std::find(kIgnoredEvents.begin(), kIgnoredEvents.end(), type) != kIgnoredEvents.end()) {
    return std::nullopt;
  }
  event.fail("event type '" + std::string(type) + "' is not supported by batfill");
}

ParsedMessage parse_envelope(const Value& document) {
  const Where envelope_where;
  const Fields envelope(document, envelope_where);
  ParsedMessage parsed;
  parsed.message.now = envelope.time("now");
  const Value& events = envelope.array("events");
  for (rapidjson::SizeType i = 0; i < events.Size(); ++i) {
    Where where{i, {}};
    if (!events[i].IsObject()) {
      throw ProtocolError("must be an object, got " + json_text(events[i])).in_event(i, "");
    }
    const Fields event(events[i], where);
    where.type = union_type(event, "event");
    Event value;
    value.timestamp = event.time("timestamp");
    std::optional<EventData> data = parse_event_data(where.type, event.object("event"));
    if (!data) {
      parsed.ignored.push_back(where.text() + ": ignored");
      continue;
    }
    value.data = std::move(*data);
    parsed.message.events.push_back(std::move(value));
    parsed.origins.push_back({i, std::string(where.type)});
  }
  return parsed;
}

std::string_view without_trailing_nul(std::string_view json) {
  while (!json.empty() && json.back() == '\0') json.remove_suffix(1);
  return json;
}

// ---- Writing ---------------------------------------------------------------------------------

void write_union(Writer& w, const std::string& field, const char* type) {
  const std::string type_key = field + "_type";
  w.Key(type_key.c_str());
  w.String(type);
  w.Key(field.c_str());
}

void write_uint(Writer& w, const char* key, std::uint64_t value) {
  w.Key(key);
  w.Uint64(value);
}

void write_bool(Writer& w, const char* key, bool value) {
  w.Key(key);
  w.Bool(value);
}

// The user fields of a job as the text of `extra_data`: verbatim when the job came with them,
// else the typed ones of a job built in-process.
std::string extra_data_of(const SubmittedJob& job) {
  if (const auto* text = std::get_if<UserFieldsText>(&job.user_fields)) return text->json;
  const TypedUserFields& typed = std::get<TypedUserFields>(job.user_fields);
  if (typed.user < 0 && typed.queue.empty()) return "";
  rapidjson::StringBuffer buffer;
  Writer writer(buffer);
  writer.StartObject();
  write_typed_user_fields(writer, typed);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

// The job_id and Job table of JobSubmittedEvent and RegisterJobEvent.
void write_job(Writer& w, const SubmittedJob& job) {
  write_string(w, "job_id", job.id);
  w.Key("job");
  w.StartObject();
  write_uint(w, "resource_request", static_cast<std::uint64_t>(job.res));
  if (job.walltime != kNoTimeLimit) {
    w.Key("walltime");
    write_time(w, job.walltime);
  }
  // Always, empty when the job has none: Batsim 5 does, and EDCs read it unchecked (Batsim's
  // example libstatic.so crashes without it).
  write_string(w, "extra_data", extra_data_of(job));
  write_bool(w, "rigid", true);
  write_string(w, "profile_id", job.profile);
  w.EndObject();
}

void write_job_submitted(Writer& w, const JobSubmitted& e) {
  w.StartObject();
  write_job(w, e.job);
  w.Key("submission_time");
  write_time(w, e.job.subtime);
  if (e.forwarded_delay != kNoTimeLimit) {
    w.Key("profile");
    w.StartObject();
    write_string(w, "id", e.job.profile);
    write_union(w, "profile", "DelayProfile");
    w.StartObject();
    w.Key("delay");
    write_time(w, e.forwarded_delay);
    w.EndObject();
    w.EndObject();
  }
  w.EndObject();
}

void write_empty_array(Writer& w, const char* key) {
  w.Key(key);
  w.StartArray();
  w.EndArray();
}

// Every field, as Batsim 5 writes each host (EDCs read the vectors unchecked).
void write_host(Writer& w, const ComputeResource& host) {
  w.StartObject();
  write_uint(w, "id", static_cast<std::uint64_t>(host.id));
  write_string(w, "name", host.name);
  write_uint(w, "pstate", 0);
  write_uint(w, "pstate_count", std::max<std::uint64_t>(1, host.speeds.size()));
  write_string(w, "state", "IDLE");
  w.Key("properties");
  w.StartArray();
  for (const auto& [key, value] : host.properties) {
    w.StartObject();
    write_string(w, "key", key);
    write_string(w, "value", value);
    w.EndObject();
  }
  w.EndArray();
  write_empty_array(w, "zone_properties");
  write_uint(w, "core_count", 1);
  w.Key("computation_speed");
  w.StartArray();
  for (const double speed : host.speeds) w.Double(speed);
  w.EndArray();
  w.EndObject();
}

void write_simulation_begins(Writer& w, const SimulationBegins& e) {
  w.StartObject();
  write_uint(w, "host_number",
             static_cast<std::uint64_t>(e.nb_compute_resources + e.nb_storage_resources));
  write_uint(w, "computation_host_number", static_cast<std::uint64_t>(e.nb_compute_resources));
  w.Key("computation_hosts");
  w.StartArray();
  for (const ComputeResource& host : e.compute_resources) write_host(w, host);
  w.EndArray();
  write_uint(w, "storage_host_number", 0);
  write_empty_array(w, "storage_hosts");
  write_empty_array(w, "batsim_arguments");
  write_string(w, "batsim_execution_context_json", "{}");
  w.Key("workloads");
  w.StartArray();
  for (const auto& [name, path] : e.workloads) {
    w.StartObject();
    write_string(w, "name", name);
    write_string(w, "filename", path);
    w.EndObject();
  }
  w.EndArray();
  write_empty_array(w, "profiles");
  write_empty_array(w, "external_event_lists");
  write_string(w, "batsim_version", "");
  write_string(w, "batsim_commit", "");
  w.EndObject();
}

// The delay of a Batsim 4 profile object of type "delay".
std::optional<Time> delay_of_profile(const std::string& json) {
  rapidjson::Document profile;
  if (parse_json(profile, json).IsError() || !profile.IsObject()) return std::nullopt;
  const auto type = profile.FindMember("type");
  const auto delay = profile.FindMember("delay");
  if (type == profile.MemberEnd() || !type->value.IsString() ||
      std::string_view(type->value.GetString()) != "delay" || delay == profile.MemberEnd() ||
      !delay->value.IsNumber()) {
    return std::nullopt;
  }
  try {
    return from_fractional_seconds(delay->value.GetDouble());
  } catch (const std::out_of_range&) {
    return std::nullopt;
  }
}

void write_generic_event(Writer& w, const std::string& id, const std::string& data) {
  w.StartObject();
  write_string(w, "id", id);
  write_union(w, "external_event", kGenericExternalEvent);
  w.StartObject();
  write_string(w, "data", data);
  w.EndObject();
  w.EndObject();
}

void write_machine_event(Writer& w, const BatsimNotify& e) {
  rapidjson::StringBuffer buffer;
  Writer data(buffer);
  data.StartObject();
  const char* const name = wire::name_of(kMachineEvents, e.kind);
  write_string(data, "type", name);
  write_string(data, "resources", to_string(e.resources));
  data.EndObject();
  write_generic_event(w, name, std::string(buffer.GetString(), buffer.GetSize()));
}

void write_empty(Writer& w) {
  w.StartObject();
  w.EndObject();
}

// The union type of a message value and its table.
struct EventWriter {
  Writer& w;

  void operator()(const SimulationBegins& e) const {
    write_union(w, "event", event_type<SimulationBegins>());
    write_simulation_begins(w, e);
  }
  void operator()(const JobSubmitted& e) const {
    write_union(w, "event", event_type<JobSubmitted>());
    write_job_submitted(w, e);
  }
  void operator()(const JobCompleted& e) const {
    write_union(w, "event", event_type<JobCompleted>());
    w.StartObject();
    write_string(w, "job_id", e.job_id);
    write_string(w, "state", wire::name_of(kFinalJobStates, e.state));
    // uint32 on the wire: -1 (walltime reached) goes as its two's complement, as Batsim's does.
    write_uint(w, "return_code", static_cast<std::uint32_t>(e.return_code));
    w.EndObject();
  }
  void operator()(const JobKilled& e) const {
    write_union(w, "event", event_type<JobKilled>());
    w.StartObject();
    write_strings(w, "job_ids", e.job_ids);
    w.Key("progresses");
    w.StartArray();
    for (const auto& [job_id, progress] : e.progress) {
      w.StartObject();
      write_string(w, "job_id", job_id);
      w.Key("wrapper");
      kill_progress(progress);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  // A KillProgressWrapper. batprotocol has no sequence that had not started.
  void kill_progress(const JobProgress& progress) const {
    w.StartObject();
    if (!progress.current_task_index) {
      write_union(w, "kill_progress", "KillProgressAtomicProfile");
      w.StartObject();
      write_string(w, "profile_id", progress.profile_name);
      w.Key("progress");
      w.Double(progress.progress);
      w.EndObject();
    } else {
      if (*progress.current_task_index < 0 || progress.current_task.size() != 1) {
        throw std::invalid_argument("the progress of sequence '" + progress.profile_name +
                                    "' before its first task has no Batsim 5 form");
      }
      write_union(w, "kill_progress", "KillProgressSequentialProfile");
      w.StartObject();
      write_string(w, "profile_id", progress.profile_name);
      write_uint(w, "current_task_index", static_cast<std::uint64_t>(*progress.current_task_index));
      w.Key("current_task_progress");
      kill_progress(progress.current_task.front());
      w.EndObject();
    }
    w.EndObject();
  }
  void operator()(const KillJob& e) const {
    if (e.job_ids.empty()) throw std::invalid_argument("KillJobsEvent of no job");
    write_union(w, "event", event_type<KillJob>());
    w.StartObject();
    write_strings(w, "job_ids", e.job_ids);
    w.EndObject();
  }
  void operator()(const RegisterJob& e) const {
    write_union(w, "event", event_type<RegisterJob>());
    w.StartObject();
    write_job(w, e.job);
    w.EndObject();
  }
  // batprotocol's profiles are typed tables: the delay profile is the one batfill writes.
  void operator()(const RegisterProfile& e) const {
    const std::optional<Time> delay = delay_of_profile(e.profile_json);
    if (!delay) {
      throw std::invalid_argument("profile '" + e.profile_name +
                                  "' is not a delay profile, the one batfill writes for Batsim 5");
    }
    write_union(w, "event", event_type<RegisterProfile>());
    w.StartObject();
    w.Key("profile");
    w.StartObject();
    write_string(w, "id", e.workload_name + "!" + e.profile_name);
    write_union(w, "profile", "DelayProfile");
    w.StartObject();
    w.Key("delay");
    write_time(w, *delay);
    w.EndObject();
    w.EndObject();
    w.EndObject();
  }
  void operator()(const SetJobMetadata& e) const { unsupported(e); }
  void operator()(const RequestedCall&) const {
    write_union(w, "event", event_type<RequestedCall>());
    w.StartObject();
    write_string(w, "call_me_later_id", "batfill");
    write_bool(w, "last_periodic_call", false);
    w.EndObject();
  }
  void operator()(const BatsimNotify& e) const {
    if (const char* const event = wire::name_of(kNotificationEvents, e.kind); *event != '\0') {
      write_union(w, "event", event);
      write_empty(w);
    } else if (e.kind == Notification::kMachinesAvailable ||
               e.kind == Notification::kMachinesUnavailable) {
      write_union(w, "event", kExternalEvent);
      write_machine_event(w, e);
    } else if (e.kind == Notification::kOther && !e.event_json.empty()) {
      write_union(w, "event", kExternalEvent);
      write_generic_event(w, e.other, e.event_json);
    } else {
      throw std::invalid_argument("the notification '" + e.other + "' has no Batsim 5 event");
    }
  }
  void operator()(const EstimateWaitingTimeQuery& e) const { unsupported(e); }
  void operator()(const ResourceStateChanged& e) const {
    power_event(e.resources, e.pstate, e.change, &PowerEvents::acknowledgement);
  }
  void operator()(const SetResourceState& e) const {
    power_event(e.resources, e.pstate, e.change, &PowerEvents::decision);
  }
  void operator()(const ConsumedEnergyQuery& e) const { unsupported(e); }
  void operator()(const ConsumedEnergyAnswer& e) const { unsupported(e); }
  void operator()(const SimulationEnds&) const {
    write_union(w, "event", event_type<SimulationEnds>());
    write_empty(w);
  }
  // The default executor placement: one executor per host, in host order.
  void operator()(const ExecuteJob& e) const {
    if (e.alloc.empty()) {
      throw std::invalid_argument("ExecuteJob of '" + e.job_id + "' with an empty allocation");
    }
    write_union(w, "event", event_type<ExecuteJob>());
    w.StartObject();
    write_string(w, "job_id", e.job_id);
    w.Key("allocation");
    w.StartObject();
    write_string(w, "host_allocation", to_string(e.alloc));
    write_union(w, "executor_placement", "PredefinedExecutorPlacementStrategyWrapper");
    w.StartObject();
    write_string(w, "strategy", "SpreadOverHostsFirst");
    w.EndObject();
    w.EndObject();
    w.EndObject();
  }
  void operator()(const RejectJob& e) const {
    write_union(w, "event", event_type<RejectJob>());
    w.StartObject();
    write_string(w, "job_id", e.job_id);
    w.EndObject();
  }
  // OneShot times are whole units: milliseconds, rounded up so the call never comes before the
  // time asked (docs/protocol.md#batsim-5-events-batfill-writes).
  void operator()(const CallMeLater& e) const {
    if (e.at == kNever || e.at < 0) {
      throw std::invalid_argument("CallMeLater at a time Batsim cannot take");
    }
    const Time milliseconds = (e.at + 999) / 1000;
    write_union(w, "event", event_type<CallMeLater>());
    w.StartObject();
    write_string(w, "call_me_later_id", "batfill@" + format_seconds(e.at));
    write_union(w, "when", "OneShot");
    w.StartObject();
    write_uint(w, "time", static_cast<std::uint64_t>(milliseconds));
    write_string(w, "time_unit", "Millisecond");
    w.EndObject();
    w.EndObject();
  }
  void operator()(const EstimateWaitingTimeAnswer& e) const { unsupported(e); }

  // Batsim 5 names the kind of change in the event, which Batsim 4's SET_RESOURCE_STATE
  // leaves to the platform.
  void power_event(const MachineSet& hosts, int pstate, PowerChange change,
                   const char* PowerEvents::*event) const {
    const PowerEvents* names = power_events_of(change);
    if (names == nullptr) {
      throw std::invalid_argument(
          "a change to pstate " + std::to_string(pstate) + " of machines " + to_string(hosts) +
          " that does not say whether it turns them on or off or changes their computation "
          "pstate has no Batsim 5 event");
    }
    if (hosts.empty() || pstate < 0) {
      throw std::invalid_argument(std::string(names->*event) + " for no host or pstate " +
                                  std::to_string(pstate));
    }
    write_union(w, "event", names->*event);
    w.StartObject();
    write_string(w, kPowerHosts, to_string(hosts));
    write_uint(w, names->pstate_field, static_cast<std::uint64_t>(pstate));
    w.EndObject();
  }

  // Named as Batsim 4 names it, the only protocol that has it.
  [[noreturn]] static void unsupported(const EventData& value) {
    throw std::invalid_argument(event_type_name(value) + " has no Batsim 5 event");
  }
};

void write_envelope_start(Writer& w, Time now) {
  w.StartObject();
  w.Key("now");
  write_time(w, now);
  w.Key("events");
  w.StartArray();
}

void write_envelope_end(Writer& w) {
  w.EndArray();
  w.EndObject();
}

}  // namespace

ParsedMessage decode(std::string_view json) {
  return read_document(without_trailing_nul(json), parse_envelope);
}

std::string encode(const Message& message) {
  rapidjson::StringBuffer buffer;
  Writer writer(buffer);
  write_envelope_start(writer, message.now);
  for (const Event& event : message.events) {
    writer.StartObject();
    writer.Key("timestamp");
    write_time(writer, event.timestamp);
    std::visit(EventWriter{writer}, event.data);
    writer.EndObject();
  }
  write_envelope_end(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string encode_hello(const EdcHello& hello) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  write_envelope_start(w, 0);
  w.StartObject();
  w.Key("timestamp");
  write_time(w, 0);
  write_union(w, "event", kHelloEvent);
  w.StartObject();
  write_string(w, "batprotocol_version", kBatprotocolVersion);
  write_string(w, "decision_component_name", hello.name);
  write_string(w, "decision_component_version", hello.version);
  // Batsim 5.0.0-rc2 reads the commit unconditionally: it must be present, even empty.
  write_string(w, "decision_component_commit", hello.commit);
  w.Key("requested_simulation_features");
  w.StartObject();
  for (const char* feature :
       {"dynamic_registration", "profile_reuse", "acknowledge_dynamic_jobs"}) {
    write_bool(w, feature, false);
  }
  write_bool(w, "forward_profiles_on_job_submission", hello.forward_profiles_on_job_submission);
  for (const char* feature :
       {"forward_profiles_on_jobs_killed", "forward_profiles_on_simulation_begins",
        "forward_unknown_external_events"}) {
    write_bool(w, feature, false);
  }
  w.EndObject();
  // batfill never shares a machine and allocates exactly the machines a job asks for.
  w.Key("scheduling_constraints");
  w.StartObject();
  write_bool(w, "compute_sharing", false);
  write_bool(w, "storage_sharing", true);
  write_string(w, "job_allocation_validation_strategy", "MatchJobRequestExactly");
  w.EndObject();
  w.EndObject();
  w.EndObject();
  write_envelope_end(w);
  return std::string(buffer.GetString(), buffer.GetSize());
}

EdcHello decode_hello(std::string_view json) {
  return read_document(without_trailing_nul(json), [](const Value& document) {
    const Where envelope_where;
    const Fields envelope(document, envelope_where);
    const Value& events = envelope.array("events");
    if (events.Size() != 1 || !events[0].IsObject()) {
      envelope.fail(std::string("the reply to init must hold exactly one event, an ") +
                    kHelloEvent);
    }
    Where where{0, {}};
    const Fields event(events[0], where);
    where.type = union_type(event, "event");
    if (where.type != kHelloEvent) event.fail(std::string("must be an ") + kHelloEvent);
    const Fields fields = event.object("event");
    EdcHello hello;
    hello.name = fields.string("decision_component_name");
    hello.version = fields.string("decision_component_version");
    hello.commit = fields.optional_string("decision_component_commit").value_or("");
    if (const Value* features = fields.find("requested_simulation_features");
        features != nullptr && features->IsObject()) {
      const auto asked = features->FindMember("forward_profiles_on_job_submission");
      hello.forward_profiles_on_job_submission =
          asked != features->MemberEnd() && asked->value.IsBool() && asked->value.GetBool();
    }
    return hello;
  });
}

std::string write_stop_notice(const std::string& what) {
  return R"({"now":0.0,"events":[],")" + stop_notice_text(what) + R"(":0})";
}

std::optional<std::string> read_stop_notice(std::string_view json) {
  try {
    return read_document(
        without_trailing_nul(json), [](const Value& document) -> std::optional<std::string> {
          for (const auto& member : document.GetObject()) {
            const std::string_view name(member.name.GetString(), member.name.GetStringLength());
            if (name.rfind(kStopNoticePrefix, 0) == 0) return std::string(name);
          }
          return std::nullopt;
        });
  } catch (const ProtocolError&) {
    return std::nullopt;
  }
}

}  // namespace batfill::protocol::batsim5
