// The Batsim 5 JSON codec against batprotocol's schema: the messages below are written by hand
// from the schema's table and field names (flatbuffers' JSON: a union `x` is `x_type` + `x`,
// enums by name), as Batsim 5.0.0-rc2 writes them with default scalars included.

#include "batfill/protocol/batsim5_codec.hpp"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

namespace batfill::protocol::batsim5 {
namespace {

std::string one_event(const std::string& now, const std::string& type, const std::string& body) {
  return R"({"now":)" + now + R"(,"events":[{"timestamp":)" + now + R"(,"event_type":")" + type +
         R"(","event":)" + body + "}]}";
}

template <typename T>
const T& only_event(const ParsedMessage& parsed) {
  EXPECT_EQ(parsed.message.events.size(), 1u);
  return std::get<T>(parsed.message.events.at(0).data);
}

std::string error_of(const std::string& json) {
  try {
    decode(json);
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Batsim5Codec, SimulationBeginsKeepsOnlyComputationHostsAsMachines) {
  const std::string begins = R"({"host_number":3,"computation_host_number":2,
    "computation_hosts":[
      {"id":0,"name":"node0","pstate":0,"pstate_count":1,"state":"IDLE",
       "properties":[{"key":"speed","value":"1Gf"}],"zone_properties":[],"core_count":1,
       "computation_speed":[1e9]},
      {"id":1,"name":"node1","pstate":0,"pstate_count":1,"state":"IDLE","core_count":1}],
    "storage_host_number":1,
    "storage_hosts":[{"id":2,"name":"disk","pstate":0,"pstate_count":1,"state":"IDLE"}],
    "batsim_arguments":["batsim"],"batsim_execution_context_json":"{}",
    "workloads":[{"name":"w0","filename":"/tmp/w.json"}],"external_event_lists":[],
    "batsim_version":"5.0.0-rc2","batsim_commit":""})";
  const ParsedMessage parsed = decode(one_event("0.0", "SimulationBeginsEvent", begins));
  const auto& value = only_event<SimulationBegins>(parsed);
  EXPECT_EQ(value.nb_compute_resources, 2);
  EXPECT_EQ(value.nb_storage_resources, 1);
  ASSERT_EQ(value.compute_resources.size(), 2u);
  EXPECT_EQ(value.compute_resources[1].id, 1);
  EXPECT_EQ(value.compute_resources[1].name, "node1");
  EXPECT_EQ(value.compute_resources[0].properties.at("speed"), "1Gf");
  EXPECT_EQ(value.workloads.at("w0"), "/tmp/w.json");
  EXPECT_EQ(value.sched_config, "");
}

TEST(Batsim5Codec, JobSubmittedReadsRequestWalltimeUserFieldsAndProfile) {
  const std::string submitted = R"({"job_id":"w0!3",
    "job":{"resource_request":4,"walltime":7200.0,
           "extra_data":"{\"user\":12,\"queue\":\"long\"}","rigid":true,"profile_id":"p3"},
    "submission_time":12.5,
    "profile":{"id":"w0!p3","profile_type":"DelayProfile","profile":{"delay":100.25}}})";
  const ParsedMessage parsed = decode(one_event("12.5", "JobSubmittedEvent", submitted));
  const auto& value = only_event<JobSubmitted>(parsed);
  EXPECT_EQ(value.job.id, "w0!3");
  EXPECT_EQ(value.job.res, 4);
  EXPECT_EQ(value.job.walltime, from_seconds(7200));
  EXPECT_EQ(value.job.subtime, 12'500'000);
  EXPECT_EQ(value.job.profile, "p3");
  EXPECT_EQ(typed_user_fields(value.job).user, 12);
  EXPECT_EQ(typed_user_fields(value.job).queue, "long");
  EXPECT_EQ(value.forwarded_delay, 100'250'000);
}

// Batsim 5 leaves an optional walltime out when the job has none
// (docs/semantics.md#queues---queues).
TEST(Batsim5Codec, AbsentOrNullWalltimeMeansNoLimit) {
  for (const std::string walltime : {"", R"("walltime":null,)"}) {
    const std::string submitted = R"({"job_id":"w0!1","job":{"resource_request":1,)" + walltime +
                                  R"("rigid":true,"profile_id":"p"},"submission_time":0.0})";
    const auto parsed = decode(one_event("0.0", "JobSubmittedEvent", submitted));
    EXPECT_EQ(only_event<JobSubmitted>(parsed).job.walltime, kNoTimeLimit) << walltime;
    EXPECT_EQ(only_event<JobSubmitted>(parsed).forwarded_delay, kNoTimeLimit);
  }
}

TEST(Batsim5Codec, NonObjectExtraDataCarriesNoUserFields) {
  const std::string submitted =
      R"({"job_id":"w0!1","job":{"resource_request":1,"walltime":5.0,"extra_data":"hello",
          "profile_id":"p"},"submission_time":0.0})";
  const auto parsed = decode(one_event("0.0", "JobSubmittedEvent", submitted));
  EXPECT_EQ(typed_user_fields(only_event<JobSubmitted>(parsed).job).user, -1);
  EXPECT_TRUE(
      std::holds_alternative<TypedUserFields>(only_event<JobSubmitted>(parsed).job.user_fields));
}

// extra_data is a string, so the message's nesting limit does not bound the object inside it;
// the user fields batfill reads are found whatever its depth, as the codec always took them.
TEST(Batsim5Codec, DeepExtraDataStillGivesItsUserFields) {
  const std::string deep = std::string(300, '[') + std::string(300, ']');
  const std::string submitted =
      R"({"job_id":"w0!1","job":{"resource_request":1,"walltime":5.0,"extra_data":"{\"user\":3,)"
      R"(\"x\":)" +
      deep + R"(}","profile_id":"p"},"submission_time":0.0})";
  const auto parsed = decode(one_event("0.0", "JobSubmittedEvent", submitted));
  EXPECT_EQ(typed_user_fields(only_event<JobSubmitted>(parsed).job).user, 3);
}

TEST(Batsim5Codec, JobCompletedStatesAndUint32ReturnCode) {
  const auto parsed = decode(one_event(
      "30.0", "JobCompletedEvent",
      R"({"job_id":"w0!1","state":"COMPLETED_WALLTIME_REACHED","return_code":4294967295})"));
  const auto& value = only_event<JobCompleted>(parsed);
  EXPECT_EQ(value.job_id, "w0!1");
  EXPECT_EQ(value.state, JobState::kWalltimeReached);
  EXPECT_EQ(value.return_code, -1);
  EXPECT_TRUE(value.alloc.empty());
}

TEST(Batsim5Codec, NotificationsMapToTheirBatsim4Meaning) {
  const std::string message = R"({"now":5.0,"events":[
    {"timestamp":5.0,"event_type":"AllStaticJobsHaveBeenSubmittedEvent","event":{}},
    {"timestamp":5.0,"event_type":"AllStaticExternalEventsHaveBeenInjectedEvent","event":{}},
    {"timestamp":5.0,"event_type":"RequestedCallEvent",
     "event":{"call_me_later_id":"x","last_periodic_call":false}},
    {"timestamp":5.0,"event_type":"JobsKilledEvent","event":{"job_ids":["w0!2"],"progresses":[]}},
    {"timestamp":5.0,"event_type":"SimulationEndsEvent","event":{}}]})";
  const ParsedMessage parsed = decode(message);
  ASSERT_EQ(parsed.message.events.size(), 5u);
  EXPECT_EQ(std::get<BatsimNotify>(parsed.message.events[0].data).kind,
            Notification::kNoMoreStaticJobs);
  EXPECT_EQ(std::get<BatsimNotify>(parsed.message.events[1].data).kind,
            Notification::kNoMoreExternalEvents);
  EXPECT_TRUE(std::holds_alternative<RequestedCall>(parsed.message.events[2].data));
  EXPECT_EQ(std::get<JobKilled>(parsed.message.events[3].data).job_ids,
            std::vector<std::string>{"w0!2"});
  EXPECT_TRUE(std::holds_alternative<SimulationEnds>(parsed.message.events[4].data));
  EXPECT_TRUE(parsed.ignored.empty());
}

// Batsim 5 expresses machine availability only as a generic external event whose data is the
// JSON object of its documentation; any other external event is listed as ignored.
TEST(Batsim5Codec, ExternalEventsGiveMachineAvailabilityOrAreIgnored) {
  const std::string message = R"({"now":10.0,"events":[
    {"timestamp":10.0,"event_type":"ExternalEventOccurredEvent","event":{"id":"e1",
     "external_event_type":"GenericExternalEvent",
     "external_event":{"data":"{\"type\": \"machine_unavailable\", \"resources\": \"0-4 6\"}"}}},
    {"timestamp":10.0,"event_type":"ExternalEventOccurredEvent","event":{"id":"e2",
     "external_event_type":"GenericExternalEvent",
     "external_event":{"data":"{\"type\": \"coffee_break\"}"}}},
    {"timestamp":10.0,"event_type":"HostsPStateChangedEvent","event":{"host_ids":"0","pstate":1}},
    {"timestamp":10.0,"event_type":"ProbeDataEmittedEvent","event":{"probe_id":"p"}}]})";
  const ParsedMessage parsed = decode(message);
  ASSERT_EQ(parsed.message.events.size(), 2u);
  const auto& notify = std::get<BatsimNotify>(parsed.message.events[0].data);
  EXPECT_EQ(notify.kind, Notification::kMachinesUnavailable);
  EXPECT_EQ(to_string(notify.resources), "0-4 6");
  EXPECT_EQ(std::get<ResourceStateChanged>(parsed.message.events[1].data).pstate, 1);
  ASSERT_EQ(parsed.ignored.size(), 2u);
  EXPECT_EQ(parsed.ignored[0], "event 1 (ExternalEventOccurredEvent): ignored");
  EXPECT_EQ(parsed.ignored[1], "event 3 (ProbeDataEmittedEvent): ignored");
}

// What the stand-in sends has every field Batsim 5 always sends (its protocol.cpp and
// batprotocol's MessageBuilder): EDCs read them unchecked. Batsim's libstatic.so crashed on a
// JobSubmittedEvent without `extra_data`, which Batsim writes even when empty.
TEST(Batsim5Codec, EventsHaveEveryFieldBatsim5AlwaysSends) {
  SimulationBegins begins;
  begins.nb_compute_resources = 1;
  ComputeResource host;
  host.name = "node0";
  host.speeds = {1e9, 5e8};
  begins.compute_resources.push_back(host);
  begins.workloads["w0"] = "w.json";
  JobSubmitted submitted;
  submitted.job.id = "w0!1";
  submitted.job.res = 2;
  submitted.job.profile = "p";
  Message message;
  message.events.push_back({0, begins});
  message.events.push_back({0, submitted});
  rapidjson::Document document;
  document.Parse(encode(message).c_str());
  ASSERT_FALSE(document.HasParseError());
  const rapidjson::Value& begins_json = document["events"][0]["event"];
  for (const char* key :
       {"host_number", "computation_host_number", "computation_hosts", "storage_host_number",
        "storage_hosts", "batsim_arguments", "batsim_execution_context_json", "workloads",
        "profiles", "external_event_lists", "batsim_version", "batsim_commit"}) {
    EXPECT_TRUE(begins_json.HasMember(key)) << key;
  }
  const rapidjson::Value& host_json = begins_json["computation_hosts"][0];
  for (const char* key : {"id", "name", "pstate", "pstate_count", "state", "properties",
                          "zone_properties", "core_count", "computation_speed"}) {
    EXPECT_TRUE(host_json.HasMember(key)) << key;
  }
  EXPECT_EQ(host_json["computation_speed"].Size(), 2u);
  EXPECT_EQ(host_json["pstate_count"].GetUint(), 2u);
  const rapidjson::Value& job_json = document["events"][1]["event"]["job"];
  for (const char* key : {"resource_request", "extra_data", "rigid", "profile_id"}) {
    EXPECT_TRUE(job_json.HasMember(key)) << key;
  }
  EXPECT_STREQ(job_json["extra_data"].GetString(), "");
}

// A count beyond 32 bits is refused with the range it must lie in.
TEST(Batsim5Codec, ResourceRequestBeyondAnIntNamesTheRange) {
  EXPECT_EQ(error_of(one_event("0.0", "JobSubmittedEvent",
                               R"({"job_id":"w0!1","job":{"resource_request":1099511627776}})")),
            "event 0 (JobSubmittedEvent): field 'event.job.resource_request' must be an integer "
            "from -2147483648 to 2147483647, got 1099511627776");
}

// batprotocol's counts and ids are uint32: a negative one is refused when read, as the encoder
// could not write it back (found by fuzz_batsim5_codec: -1 came back as 2^64-1).
TEST(Batsim5Codec, NegativeCountsAreRefused) {
  EXPECT_EQ(error_of(one_event("0.0", "JobSubmittedEvent",
                               R"({"job_id":"w0!1","job":{"resource_request":-1}})")),
            "event 0 (JobSubmittedEvent): field 'event.job.resource_request' must be >= 0, got -1");
  EXPECT_EQ(error_of(one_event("0.0", "SimulationBeginsEvent", R"({"storage_host_number":-2})")),
            "event 0 (SimulationBeginsEvent): field 'event.storage_host_number' must be >= 0, "
            "got -2");
  EXPECT_EQ(
      error_of(one_event("0.0", "SimulationBeginsEvent", R"({"computation_host_number":-3})")),
      "event 0 (SimulationBeginsEvent): field 'event.computation_host_number' must be >= 0, "
      "got -3");
}

TEST(Batsim5Codec, TrailingNulOfACStringIsAccepted) {
  std::string message = one_event("1.0", "SimulationEndsEvent", "{}");
  message.push_back('\0');
  EXPECT_EQ(decode(message).message.now, from_seconds(1));
}

TEST(Batsim5Codec, ErrorsNameTheEventAndTheField) {
  EXPECT_EQ(error_of(one_event("0.0", "JobCompletedEvent", R"({"state":"COMPLETED_FAILED"})")),
            "event 0 (JobCompletedEvent): missing string field 'event.job_id'");
  EXPECT_EQ(error_of(one_event("0.0", "RegisterJobEvent", "{}")),
            "event 0 (RegisterJobEvent): missing string field 'event.job_id'");
  EXPECT_EQ(error_of(one_event("0.0", "ForceSimulationStopEvent", "{}")),
            "event 0 (ForceSimulationStopEvent): event type 'ForceSimulationStopEvent' is not "
            "supported by batfill");
  EXPECT_EQ(error_of(R"({"now":0.0,"events":[{"timestamp":0.0,"event":{}}]})"),
            "event 0: missing string field 'event_type'");
  EXPECT_EQ(error_of(one_event("0.0", "JobSubmittedEvent",
                               R"({"job_id":"w0!1","job":{"resource_request":1,"walltime":0.0}})")),
            "event 0 (JobSubmittedEvent): field 'event.job.walltime' must be > 0, or -1 or absent "
            "for no limit, got 0.000000");
  EXPECT_EQ(error_of("{\"now\": 1"),
            "malformed JSON at offset 9: Missing a comma or '}' after "
            "an object member.");
}

// The decisions exactly as batprotocol's tables name them: Batsim's flatbuffers parser rejects
// any unknown field.
TEST(Batsim5Codec, DecisionsAreWrittenWithTheSchemaNames) {
  Message reply;
  reply.now = from_seconds(20);
  reply.events.push_back({from_seconds(20), RejectJob{"w0!9"}});
  reply.in_process.rejection_reasons.push_back({"", "w0!9", "too big"});
  reply.events.push_back({from_seconds(20), ExecuteJob{"w0!3", parse_machine_set("0-3 7")}});
  reply.events.push_back({from_seconds(20), CallMeLater{from_seconds(80) + 1}});
  EXPECT_EQ(encode(reply),
            R"({"now":20.000000,"events":[)"
            R"({"timestamp":20.000000,"event_type":"RejectJobEvent","event":{"job_id":"w0!9"}},)"
            R"({"timestamp":20.000000,"event_type":"ExecuteJobEvent","event":{"job_id":"w0!3",)"
            R"("allocation":{"host_allocation":"0-3 7","executor_placement_type":)"
            R"("PredefinedExecutorPlacementStrategyWrapper","executor_placement":)"
            R"({"strategy":"SpreadOverHostsFirst"}}}},)"
            R"({"timestamp":20.000000,"event_type":"CallMeLaterEvent","event":)"
            R"({"call_me_later_id":"batfill@80.000001","when_type":"OneShot","when":)"
            R"({"time":80001,"time_unit":"Millisecond"}}}]})");
}

TEST(Batsim5Codec, DecisionsReadBack) {
  Message reply;
  reply.now = from_seconds(20);
  reply.events.push_back({from_seconds(20), ExecuteJob{"w0!3", parse_machine_set("0-3 7")}});
  reply.events.push_back({from_seconds(20), RejectJob{"w0!4"}});
  reply.events.push_back({from_seconds(20), CallMeLater{from_seconds(81)}});
  const ParsedMessage parsed = decode(encode(reply));
  ASSERT_EQ(parsed.message.events.size(), 3u);
  EXPECT_EQ(to_string(std::get<ExecuteJob>(parsed.message.events[0].data).alloc), "0-3 7");
  EXPECT_EQ(std::get<RejectJob>(parsed.message.events[1].data).job_id, "w0!4");
  EXPECT_EQ(std::get<CallMeLater>(parsed.message.events[2].data).at, from_seconds(81));
}

TEST(Batsim5Codec, CallMeLaterInSecondsIsRead) {
  const auto parsed = decode(one_event(
      "3.0", "CallMeLaterEvent",
      R"({"call_me_later_id":"a","when_type":"OneShot","when":{"time":42,"time_unit":"Second"}})"));
  EXPECT_EQ(only_event<CallMeLater>(parsed).at, from_seconds(42));
}

TEST(Batsim5Codec, HelloNamesBatfillAndAsksForProfilesOnlyWhenTold) {
  EdcHello hello{"batfill", "0.1.0", "", true};
  const std::string text = encode_hello(hello);
  rapidjson::Document document;
  document.Parse(text.c_str());
  const auto& event = document["events"][0];
  EXPECT_STREQ(event["event_type"].GetString(), "EDCHelloEvent");
  EXPECT_STREQ(event["event"]["decision_component_name"].GetString(), "batfill");
  EXPECT_STREQ(event["event"]["decision_component_commit"].GetString(), "");
  EXPECT_TRUE(event["event"]["requested_simulation_features"]["forward_profiles_on_job_submission"]
                  .GetBool());
  const EdcHello read = decode_hello(text);
  EXPECT_EQ(read.name, "batfill");
  EXPECT_TRUE(read.forward_profiles_on_job_submission);
  EXPECT_FALSE(
      decode_hello(encode_hello({"x", "1", "", false})).forward_profiles_on_job_submission);
}

// The stand-in's side: Batsim's events written, then read back by batfill's own reader.
TEST(Batsim5Codec, BatsimEventsRoundTrip) {
  JobSubmitted submitted;
  submitted.job.id = "w0!5";
  submitted.job.subtime = from_seconds(3);
  submitted.job.res = 2;
  submitted.job.profile = "p5";
  submitted.job.user_fields = TypedUserFields{7, "short"};
  submitted.forwarded_delay = from_seconds(60);
  JobCompleted completed{"w0!1", JobState::kWalltimeReached, -1, parse_machine_set("0")};
  SimulationBegins begins;
  begins.nb_compute_resources = 2;
  begins.compute_resources = {{0, "a", "idle", {}}, {1, "b", "idle", {}}};
  Message message;
  message.now = from_seconds(3);
  for (EventData data : std::vector<EventData>{
           begins, submitted, completed,
           BatsimNotify{Notification::kMachinesAvailable, parse_machine_set("1")},
           BatsimNotify{Notification::kNoMoreStaticJobs, {}}}) {
    message.events.push_back({from_seconds(3), data});
  }
  const ParsedMessage parsed = decode(encode(message));
  ASSERT_EQ(parsed.message.events.size(), 5u);
  EXPECT_EQ(std::get<SimulationBegins>(parsed.message.events[0].data).compute_resources[1].name,
            "b");
  const auto& job = std::get<JobSubmitted>(parsed.message.events[1].data);
  EXPECT_EQ(typed_user_fields(job.job).user, 7);
  EXPECT_EQ(typed_user_fields(job.job).queue, "short");
  EXPECT_EQ(job.job.walltime, kNoTimeLimit);
  EXPECT_EQ(job.forwarded_delay, from_seconds(60));
  EXPECT_EQ(std::get<JobCompleted>(parsed.message.events[2].data).return_code, -1);
  EXPECT_EQ(to_string(std::get<BatsimNotify>(parsed.message.events[3].data).resources), "1");
  EXPECT_EQ(std::get<BatsimNotify>(parsed.message.events[4].data).kind,
            Notification::kNoMoreStaticJobs);
}

// batprotocol's KillJobsEvent, JobsKilledEvent (KillProgress tables), RegisterProfileEvent
// (a DelayProfile under "workload!name"), RegisterJobEvent and FinishRegistrationEvent.
TEST(Batsim5Codec, KillsAndRegistrationsRoundTrip) {
  SubmittedJob job;
  job.id = "dyn!4";
  job.res = 3;
  job.profile = "dyn!p";
  job.walltime = from_seconds(50);
  JobProgress sequence{"w0!s", 0, 1, {JobProgress{"w0!d", 0.75, std::nullopt, {}}}};
  Message message;
  message.now = from_seconds(9);
  for (EventData data : std::vector<EventData>{
           KillJob{{"w0!1", "w0!2"}}, JobKilled{{"w0!1", "w0!2"}, {{"w0!2", sequence}}},
           RegisterProfile{"dyn", "p", R"({"type":"delay","delay":2.5})"}, RegisterJob{job},
           BatsimNotify{Notification::kRegistrationFinished, {}}}) {
    message.events.push_back({from_seconds(9), data});
  }
  const std::string text = encode(message);
  EXPECT_NE(text.find(R"("event_type":"FinishRegistrationEvent","event":{})"), std::string::npos);
  EXPECT_NE(text.find(R"("profile":{"id":"dyn!p","profile_type":"DelayProfile","profile":)"
                      R"({"delay":2.500000}})"),
            std::string::npos)
      << text;
  const ParsedMessage parsed = decode(text);
  ASSERT_EQ(parsed.message.events.size(), 5u);
  EXPECT_EQ(std::get<KillJob>(parsed.message.events[0].data).job_ids.size(), 2u);
  const auto& killed = std::get<JobKilled>(parsed.message.events[1].data);
  ASSERT_EQ(killed.progress.size(), 1u);
  EXPECT_EQ(killed.progress[0].second.current_task_index, 1);
  EXPECT_DOUBLE_EQ(killed.progress[0].second.current_task.at(0).progress, 0.75);
  const auto& profile = std::get<RegisterProfile>(parsed.message.events[2].data);
  EXPECT_EQ(profile.workload_name, "dyn");
  EXPECT_EQ(profile.profile_name, "p");
  EXPECT_EQ(profile.profile_json, R"({"type":"delay","delay":2.500000})");
  const auto& registered = std::get<RegisterJob>(parsed.message.events[3].data).job;
  EXPECT_EQ(registered.id, "dyn!4");
  EXPECT_EQ(registered.res, 3);
  EXPECT_EQ(registered.walltime, from_seconds(50));
  EXPECT_EQ(std::get<BatsimNotify>(parsed.message.events[4].data).kind,
            Notification::kRegistrationFinished);
  EXPECT_EQ(encode(parsed.message), text);
}

// A generic external event goes to a Batsim 5 EDC as its GenericExternalEvent, data verbatim.
TEST(Batsim5Codec, GenericEventsAreWrittenAsGenericExternalEvents) {
  Message message;
  message.events.push_back(
      {0, BatsimNotify{Notification::kOther, {}, "ev", R"({"type":"ev","timestamp":0})"}});
  EXPECT_EQ(encode(message),
            R"({"now":0.000000,"events":[{"timestamp":0.000000,"event_type":)"
            R"("ExternalEventOccurredEvent","event":{"id":"ev","external_event_type":)"
            R"("GenericExternalEvent","external_event":{"data":)"
            R"("{\"type\":\"ev\",\"timestamp\":0}"}}}]})");
}

TEST(Batsim5Codec, ValuesWithoutBatsim5EventAreRefused) {
  for (const EventData& data : std::vector<EventData>{
           EstimateWaitingTimeAnswer{"w0!1", 0}, ConsumedEnergyQuery{}, ConsumedEnergyAnswer{1},
           SetJobMetadata{"w0!1", "m"}, BatsimNotify{Notification::kContinueRegistration, {}},
           RegisterProfile{"w0", "p", R"({"type":"parallel_homogeneous","cpu":1,"com":0})"},
           // Batsim 5 must be told the kind of change, which Batsim 4 reads from the platform.
           SetResourceState{parse_machine_set("0"), 1, PowerChange::kByPlatform},
           SetResourceState{{}, 1, PowerChange::kTurnOnOff}}) {
    Message message;
    message.events.push_back({0, data});
    EXPECT_THROW(encode(message), std::invalid_argument) << event_type_name(data);
  }
}

// batprotocol's "Host power management" tables: the pstate is `pstate` in the pstate events and
// `state` in the on/off ones.
TEST(Batsim5Codec, PowerEventsAreWrittenWithTheSchemaNames) {
  Message message;
  message.now = from_seconds(30);
  message.events = {
      {from_seconds(30), SetResourceState{parse_machine_set("0-3"), 2, PowerChange::kTurnOnOff}},
      {from_seconds(30),
       SetResourceState{parse_machine_set("5"), 1, PowerChange::kComputationPState}},
      {from_seconds(30),
       ResourceStateChanged{parse_machine_set("0-3"), 2, PowerChange::kTurnOnOff}},
      {from_seconds(30),
       ResourceStateChanged{parse_machine_set("5"), 1, PowerChange::kComputationPState}}};
  const std::string text = encode(message);
  EXPECT_EQ(text, R"({"now":30.000000,"events":[)"
                  R"({"timestamp":30.000000,"event_type":"TurnOnOffHostsEvent",)"
                  R"("event":{"host_ids":"0-3","state":2}},)"
                  R"({"timestamp":30.000000,"event_type":"ChangeHostsPStateEvent",)"
                  R"("event":{"host_ids":"5","pstate":1}},)"
                  R"({"timestamp":30.000000,"event_type":"HostsTurnedOnOffEvent",)"
                  R"("event":{"host_ids":"0-3","state":2}},)"
                  R"({"timestamp":30.000000,"event_type":"HostsPStateChangedEvent",)"
                  R"("event":{"host_ids":"5","pstate":1}}]})");
  const ParsedMessage parsed = decode(text);
  ASSERT_EQ(parsed.message.events.size(), 4u);
  const auto& off = std::get<SetResourceState>(parsed.message.events[0].data);
  EXPECT_EQ(to_string(off.resources), "0-3");
  EXPECT_EQ(off.pstate, 2);
  EXPECT_EQ(off.change, PowerChange::kTurnOnOff);
  EXPECT_EQ(std::get<SetResourceState>(parsed.message.events[1].data).change,
            PowerChange::kComputationPState);
  const auto& changed = std::get<ResourceStateChanged>(parsed.message.events[2].data);
  EXPECT_EQ(changed.change, PowerChange::kTurnOnOff);
  EXPECT_EQ(changed.pstate, 2);
  EXPECT_EQ(std::get<ResourceStateChanged>(parsed.message.events[3].data).pstate, 1);
  EXPECT_EQ(encode(parsed.message), text);
}

TEST(Batsim5Codec, PowerEventsWithoutHostsAreRefused) {
  EXPECT_EQ(error_of(one_event("0.0", "TurnOnOffHostsEvent", R"({"host_ids":"","state":1})")),
            "event 0 (TurnOnOffHostsEvent): field 'event.host_ids' is empty");
  EXPECT_EQ(error_of(one_event("0.0", "HostsPStateChangedEvent", R"({"pstate":1})")),
            "event 0 (HostsPStateChangedEvent): missing string field 'event.host_ids'");
}

}  // namespace
}  // namespace batfill::protocol::batsim5
