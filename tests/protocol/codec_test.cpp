// The JSON codec against docs/protocol.md#message-envelope–docs/protocol.md#events-batfill-writes
// and the messages of a real Batsim 4.2.1 run (tests/protocol/data).

#include "batfill/protocol/codec.hpp"
#include "../support/parse_error.hpp"
#include "batfill/protocol/batsim5_codec.hpp"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "../support/batsim_capture.hpp"

namespace batfill::protocol {
namespace {

using testing::captured_run;

Message single(Time now, EventData data) {
  Message message;
  message.now = now;
  message.events.push_back(Event{now, std::move(data)});
  return message;
}

std::string error_of(const std::string& json) { return batfill::testing::parse_error_of(json); }

SubmittedJob sample_job() {
  SubmittedJob job;
  job.id = "w0!17";
  job.subtime = 12'000'450;
  job.res = 4;
  job.profile = "61";
  job.walltime = from_seconds(7200);
  job.user_fields = UserFieldsText{R"({"user":12,"queue":"long"})"};
  return job;
}

std::vector<EventData> every_event_type() {
  SimulationBegins begins;
  begins.nb_compute_resources = 2;
  begins.compute_resources = {{0, "node0", "idle", {{"role", ""}}},
                              {1, "node1", "idle", {{"role", ""}}}};
  begins.sched_config = R"({"backfill":"easy"})";
  begins.workloads = {{"w0", "/abs/wl.json"}};
  begins.features.dynamic_jobs = true;
  begins.features.forward_unknown_events = true;
  JobSubmitted submitted{sample_job(), from_seconds(61)};
  JobProgress sequence{"seq", 0, 2, {JobProgress{"d1", 0.25, std::nullopt, {}}}};
  BatsimNotify generic{Notification::kOther,
                       {},
                       "some_generic_event",
                       R"({"type":"some_generic_event","timestamp":123,"x":[1]})"};
  return {begins,
          submitted,
          JobCompleted{"w0!17", JobState::kWalltimeReached, -1, parse_machine_set("0-3 8")},
          JobKilled{{"w0!1", "w0!2"}},
          RequestedCall{},
          BatsimNotify{Notification::kMachinesUnavailable, parse_machine_set("2-3")},
          BatsimNotify{Notification::kNoMoreStaticJobs, {}},
          EstimateWaitingTimeQuery{sample_job()},
          ResourceStateChanged{parse_machine_set("0-1"), 2},
          ConsumedEnergyAnswer{12.5},
          SimulationEnds{},
          ExecuteJob{"w0!17", parse_machine_set("0-3 8")},
          RejectJob{"w0!18"},
          CallMeLater{from_seconds(100)},
          EstimateWaitingTimeAnswer{"w0!17", 90'000'001},
          SetResourceState{parse_machine_set("3-5 9"), 13},
          ConsumedEnergyQuery{},
          JobKilled{{"w0!1", "w0!2", "w0!3"},
                    {{"w0!1", JobProgress{"p", 0.5, std::nullopt, {}}},
                     {"w0!2", sequence},
                     {"w0!3", JobProgress{"seq", 0, -1, {}}}}},
          generic,
          BatsimNotify{Notification::kRegistrationFinished, {}},
          BatsimNotify{Notification::kContinueRegistration, {}},
          KillJob{{"w0!1", "w0!2"}},
          RegisterProfile{"dyn", "p1", R"({"type":"delay","delay":5})"},
          RegisterJob{sample_job()},
          SetJobMetadata{"w0!17", "attempt 2"}};
}

// Writing, parsing and writing again must give the same text: nothing is lost either way.
TEST(Codec, EveryEventTypeRoundTrips) {
  for (const EventData& data : every_event_type()) {
    const std::string text = write_message(single(3'000'045, data));
    const Message parsed = parse_message(text);
    ASSERT_EQ(parsed.events.size(), 1u) << text;
    EXPECT_EQ(parsed.now, 3'000'045);
    EXPECT_EQ(parsed.events[0].timestamp, 3'000'045);
    EXPECT_EQ(parsed.events[0].data.index(), data.index()) << text;
    EXPECT_EQ(write_message(parsed), text);
  }
}

TEST(Codec, RoundTripKeepsTheFields) {
  const Message parsed = parse_message(write_message(single(0, JobSubmitted{sample_job()})));
  const SubmittedJob& job = std::get<JobSubmitted>(parsed.events[0].data).job;
  EXPECT_EQ(job.id, "w0!17");
  EXPECT_EQ(job.subtime, 12'000'450);
  EXPECT_EQ(job.res, 4);
  EXPECT_EQ(job.profile, "61");
  EXPECT_EQ(job.walltime, from_seconds(7200));
  EXPECT_EQ(std::get<UserFieldsText>(job.user_fields).json, R"({"user":12,"queue":"long"})");
  EXPECT_EQ(typed_user_fields(job).user, 12);
  EXPECT_EQ(typed_user_fields(job).queue, "long");

  const Message completed = parse_message(write_message(
      single(0, JobCompleted{"w0!3", JobState::kKilled, -2, parse_machine_set("5 0-1")})));
  const auto& c = std::get<JobCompleted>(completed.events[0].data);
  EXPECT_EQ(c.state, JobState::kKilled);
  EXPECT_EQ(c.return_code, -2);
  EXPECT_EQ(to_string(c.alloc), "0-1 5");

  const Message answer =
      parse_message(write_message(single(0, EstimateWaitingTimeAnswer{"w0!3", from_seconds(-1)})));
  EXPECT_EQ(std::get<EstimateWaitingTimeAnswer>(answer.events[0].data).estimated_waiting_time,
            from_seconds(-1));
}

// Batsim checks the exact member count of each decision's data and aborts otherwise.
TEST(Codec, DecisionsAreWrittenExactlyAsBatsimAcceptsThem) {
  Message reply;
  reply.now = 12'000'450;
  reply.events = {Event{12'000'450, RejectJob{"w0!2"}},
                  Event{12'000'450, ExecuteJob{"w0!1", parse_machine_set("8 3 0-2")}},
                  Event{12'000'450, CallMeLater{from_seconds(20)}},
                  Event{12'000'450, EstimateWaitingTimeAnswer{"w0!4", 1'500'000}}};
  EXPECT_EQ(
      write_message(reply),
      R"({"now":12.000450,"events":[)"
      R"({"timestamp":12.000450,"type":"REJECT_JOB","data":{"job_id":"w0!2"}},)"
      R"({"timestamp":12.000450,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"0-3 8"}},)"
      R"({"timestamp":12.000450,"type":"CALL_ME_LATER","data":{"timestamp":20.000000}},)"
      R"({"timestamp":12.000450,"type":"ANSWER","data":{"estimate_waiting_time":)"
      R"({"job_id":"w0!4","estimated_waiting_time":1.500000}}}]})");
  EXPECT_EQ(write_message(Message{}), R"({"now":0.000000,"events":[]})");
}

// Batsim 4.2.1's protocol reader (docs/protocol.md "KILL_JOB", "REGISTER_JOB",
// "SET_JOB_METADATA"): KILL_JOB and SET_JOB_METADATA with exactly their members, REGISTER_JOB's
// job object with its id repeated, the scheduler's NOTIFY with only its type.
TEST(Codec, DynamicAndKillDecisionsAreWrittenAsBatsimAcceptsThem) {
  Message reply;
  reply.now = from_seconds(5);
  SubmittedJob job;
  job.id = "dyn!7";
  job.subtime = from_seconds(5);
  job.res = 1;
  job.profile = "p1";
  reply.events = {
      Event{from_seconds(5), KillJob{{"w0!1"}}},
      Event{from_seconds(5), RegisterProfile{"dyn", "p1", R"({"type":"delay","delay":3})"}},
      Event{from_seconds(5), RegisterJob{job}},
      Event{from_seconds(5), SetJobMetadata{"w0!2", "a b"}},
      Event{from_seconds(5), BatsimNotify{Notification::kRegistrationFinished, {}}}};
  EXPECT_EQ(write_message(reply),
            R"({"now":5.000000,"events":[)"
            R"({"timestamp":5.000000,"type":"KILL_JOB","data":{"job_ids":["w0!1"]}},)"
            R"({"timestamp":5.000000,"type":"REGISTER_PROFILE","data":{"workload_name":"dyn",)"
            R"("profile_name":"p1","profile":{"type":"delay","delay":3}}},)"
            R"({"timestamp":5.000000,"type":"REGISTER_JOB","data":{"job_id":"dyn!7","job":)"
            R"({"id":"dyn!7","subtime":5.000000,"res":1,"profile":"p1"}}},)"
            R"({"timestamp":5.000000,"type":"SET_JOB_METADATA","data":{"job_id":"w0!2",)"
            R"("metadata":"a b"}},)"
            R"({"timestamp":5.000000,"type":"NOTIFY","data":{"type":"registration_finished"}}]})");
  EXPECT_THROW(write_message(single(0, KillJob{})), std::invalid_argument);
  EXPECT_THROW(write_message(single(0, SetJobMetadata{"w0!1", "say \"hi\""})),
               std::invalid_argument);
}

// JOB_KILLED as Batsim 4.2.1's writer makes it (profile_name, progress, current_task_index,
// current_task; docs/protocol.md#job_killed), and a generic event forwarded as its whole object.
TEST(Codec, ReadsKillProgressAndGenericEvents) {
  const Message message = parse_message(
      R"({"now":7,"events":[{"timestamp":7,"type":"JOB_KILLED","data":{"job_ids":["w0!1","w0!2"],)"
      R"("job_progress":{"w0!2":{"profile_name":"s","current_task_index":1,)"
      R"("current_task":{"profile_name":"d","progress":0.4}}}}},)"
      R"({"timestamp":7,"type":"NOTIFY","data":{"type":"my_event","timestamp":7,"k":"v"}}]})");
  const auto& killed = std::get<JobKilled>(message.events[0].data);
  EXPECT_EQ(killed.job_ids.size(), 2u);
  ASSERT_EQ(killed.progress.size(), 1u);
  EXPECT_EQ(killed.progress[0].first, "w0!2");
  EXPECT_EQ(killed.progress[0].second.current_task_index, 1);
  ASSERT_EQ(killed.progress[0].second.current_task.size(), 1u);
  EXPECT_EQ(killed.progress[0].second.current_task[0].profile_name, "d");
  EXPECT_DOUBLE_EQ(killed.progress[0].second.current_task[0].progress, 0.4);
  const auto& generic = std::get<BatsimNotify>(message.events[1].data);
  EXPECT_EQ(generic.kind, Notification::kOther);
  EXPECT_EQ(generic.other, "my_event");
  EXPECT_EQ(generic.event_json, R"({"type":"my_event","timestamp":7,"k":"v"})");
}

TEST(Codec, MalformedKillsAndRegistrationsAreNamed) {
  EXPECT_NE(
      error_of(R"({"now":1,"events":[{"timestamp":1,"type":"KILL_JOB","data":{"job_ids":[]}}]})")
          .find("'job_ids' is empty"),
      std::string::npos);
  EXPECT_NE(error_of(R"({"now":1,"events":[{"timestamp":1,"type":"REGISTER_JOB","data":)"
                     R"({"job_id":"d!1","job":{"id":"d!2","subtime":1,"res":1,"profile":"p"}}}]})")
                .find("'job_id' is 'd!1' but 'job.id' is 'd!2'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"now":1,"events":[{"timestamp":1,"type":"REGISTER_JOB","data":)"
                     R"({"job_id":"7","job":{"id":"7","subtime":1,"res":1,"profile":"p"}}}]})")
                .find("not 'workload!name'"),
            std::string::npos);
  // batsched's submitter names the job by its name in the workload.
  const Message batsched = parse_message(
      R"({"now":1,"events":[{"timestamp":1,"type":"REGISTER_JOB","data":{"job_id":"dynamic!0",)"
      R"("job":{"id":"0","subtime":1,"walltime":6,"res":1,"profile":"delay_1"}}}]})");
  EXPECT_EQ(std::get<RegisterJob>(batsched.events[0].data).job.id, "dynamic!0");
  EXPECT_NE(error_of(R"({"now":1,"events":[{"timestamp":1,"type":"SET_JOB_METADATA","data":)"
                     R"({"job_id":"w0!1"}}]})")
                .find("'metadata'"),
            std::string::npos);
}

// Batsim 4.2.1's reader takes SET_RESOURCE_STATE's data with exactly these two members and the
// pstate as the text of an integer, and a consumed_energy QUERY with an empty object
// (docs/protocol.md#power-states).
TEST(Codec, PowerDecisionsAreWrittenExactlyAsBatsimAcceptsThem) {
  Message reply;
  reply.now = from_seconds(30);
  reply.events = {Event{from_seconds(30), SetResourceState{parse_machine_set("0-127"), 13}},
                  Event{from_seconds(30), ConsumedEnergyQuery{}}};
  EXPECT_EQ(
      write_message(reply),
      R"({"now":30.000000,"events":[)"
      R"({"timestamp":30.000000,"type":"SET_RESOURCE_STATE",)"
      R"("data":{"resources":"0-127","state":"13"}},)"
      R"({"timestamp":30.000000,"type":"QUERY","data":{"requests":{"consumed_energy":{}}}}]})");
}

// As Batsim 4.2.1 writes them: the pstate as a string, the joules as a double.
TEST(Codec, ReadsBatsimsPowerEvents) {
  const Message message = parse_message(
      R"({"now":36.1,"events":[)"
      R"({"timestamp":36.1,"type":"RESOURCE_STATE_CHANGED","data":{"resources":"0-127","state":"13"}},)"
      R"({"timestamp":36.1,"type":"ANSWER","data":{"consumed_energy":916472.016125}}]})");
  ASSERT_EQ(message.events.size(), 2u);
  const auto& changed = std::get<ResourceStateChanged>(message.events[0].data);
  EXPECT_EQ(to_string(changed.resources), "0-127");
  EXPECT_EQ(changed.pstate, 13);
  EXPECT_EQ(changed.change, PowerChange::kByPlatform);
  EXPECT_EQ(std::get<ConsumedEnergyAnswer>(message.events[1].data).joules, 916472.016125);
}

TEST(Codec, MalformedPowerEventsAreNamed) {
  const auto set_state = [](const std::string& data) {
    return error_of(R"({"now":1,"events":[{"timestamp":1,"type":"SET_RESOURCE_STATE","data":)" +
                    data + "}]}");
  };
  EXPECT_EQ(set_state(R"({"resources":"0-1","state":"off"})"),
            "event 0 (SET_RESOURCE_STATE): field 'state' must be a pstate number written as a "
            "string, got 'off'");
  EXPECT_EQ(set_state(R"({"resources":"0-1","state":"-1"})"),
            "event 0 (SET_RESOURCE_STATE): field 'state' must be a pstate number written as a "
            "string, got '-1'");
  EXPECT_EQ(set_state(R"({"resources":"0-1","state":2})"),
            "event 0 (SET_RESOURCE_STATE): field 'state' must be a string, got 2");
  EXPECT_EQ(set_state(R"({"resources":"","state":"2"})"),
            "event 0 (SET_RESOURCE_STATE): field 'resources' is empty");
  EXPECT_EQ(error_of(R"({"now":1,"events":[{"timestamp":1,"type":"QUERY","data":{"requests":)"
                     R"({"consumed_energy":{"x":1}}}}]})"),
            R"(event 0 (QUERY): field 'requests' must be exactly {"consumed_energy": {}}, got )"
            R"({"consumed_energy":{"x":1}})");
  EXPECT_EQ(error_of(R"({"now":1,"events":[{"timestamp":1,"type":"ANSWER","data":{"x":1}}]})"),
            "event 0 (ANSWER): missing number field 'consumed_energy'");
}

TEST(Codec, RefusesToWriteWhatBatsimAbortsOn) {
  EXPECT_THROW(write_message(single(0, SetResourceState{{}, 1})), std::invalid_argument);
  EXPECT_THROW(write_message(single(0, ExecuteJob{"w0!1", {}})), std::invalid_argument);
  EXPECT_THROW(write_message(single(0, CallMeLater{kNever})), std::invalid_argument);
}

TEST(Codec, JobSubmittedKeepsUserFieldsAndOmitsAMissingWalltime) {
  SubmittedJob job = sample_job();
  job.walltime = kNoTimeLimit;
  const std::string text = write_message(single(0, JobSubmitted{job}));
  EXPECT_NE(text.find(R"("job_id":"w0!17","job":{"id":"w0!17","subtime":12.000450,"res":4,)"
                      R"("profile":"61","user":12,"queue":"long"})"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("walltime"), std::string::npos);
}

// A user field's number comes back as the same double, in its shortest form: 1.0e77 is not
// moved to 1.0000000000000001e77 (RapidJSON's default parser would), and writing once more
// changes nothing. The expected texts are the shortest decimal forms of those doubles.
TEST(Codec, UserFieldNumbersRoundTripExactly) {
  const Message parsed = parse_message(
      R"({"now":1,"events":[{"timestamp":1,"type":"JOB_SUBMITTED","data":{"job_id":"w0!1",)"
      R"("job":{"id":"w0!1","subtime":0,"res":1,"profile":"p","x":1.0e77,"y":2.6397e-189}}}]})");
  const std::string written = write_message(parsed);
  EXPECT_NE(written.find(R"("x":1e77,"y":2.6397e-189)"), std::string::npos) << written;
  EXPECT_EQ(write_message(parse_message(written)), written);
}

TEST(Codec, NumberBeyondADoubleIsAnError) {
  EXPECT_EQ(error_of(R"({"now":1e400,"events":[]})"),
            "malformed JSON at offset 7: Number too big to be stored in double.");
}

// Batsim writes "walltime":-1 for jobs without a limit.
TEST(Codec, WalltimeMinusOneMeansNoLimit) {
  const Message parsed = parse_message(
      R"({"now":0,"events":[{"timestamp":0,"type":"JOB_SUBMITTED","data":{"job_id":"w0!1",)"
      R"("job":{"id":"w0!1","subtime":0,"walltime":-1,"res":1,"profile":"p"}}}]})");
  EXPECT_EQ(std::get<JobSubmitted>(parsed.events[0].data).job.walltime, kNoTimeLimit);
}

TEST(Codec, ParsesEveryCapturedMessageOfARealBatsim) {
  int parsed = 0;
  for (const char* run :
       {"onejob_fwdprof", "easy_small", "fcfs_py", "paper_easy_bf", "walltime_easy"}) {
    for (const auto& line : captured_run(run)) {
      EXPECT_NO_THROW(parse_message(line.json)) << run << " " << line.exchange;
      ++parsed;
    }
  }
  EXPECT_EQ(parsed, 45);  // every BATSIM->SCHED and SCHED->BATSIM line
}

TEST(Codec, ReadsTheCapturedSimulationBegins) {
  const Message message = parse_message(captured_run("onejob_fwdprof").at(0).json);
  const auto& begins = std::get<SimulationBegins>(message.events.at(0).data);
  EXPECT_EQ(begins.nb_compute_resources, 4);
  EXPECT_EQ(begins.nb_storage_resources, 0);
  ASSERT_EQ(begins.compute_resources.size(), 4u);
  EXPECT_EQ(begins.compute_resources[2].id, 2);
  EXPECT_EQ(begins.compute_resources[2].name, "Ginette");
  EXPECT_EQ(begins.compute_resources[2].properties.at("role"), "");
  EXPECT_EQ(begins.sched_config, R"({"foo":1})");
  EXPECT_EQ(begins.workloads.at("w0"), "/path/to/batsim/workloads/test_one_delay_job.json");
}

// Batsim's 6-decimal doubles become exact microseconds and are written back unchanged.
TEST(Codec, TimesAreExactMicroseconds) {
  const std::string captured = captured_run("easy_small").at(10).json;  // now 10.002015
  const Message message = parse_message(captured);
  EXPECT_EQ(message.now, 10'002'015);
  EXPECT_NE(write_message(message).find(R"("now":10.002015)"), std::string::npos);
  // The Python scheduler's exponent form (fcfs_py reply 1).
  const Message reply = parse_message(captured_run("fcfs_py").at(3).json);
  EXPECT_EQ(reply.now, 45);
  EXPECT_EQ(to_string(std::get<ExecuteJob>(reply.events.at(0).data).alloc), "0");
}

TEST(Codec, ReadsCapturedCompletionsAndForwardedProfiles) {
  const Message walltime = parse_message(captured_run("walltime_easy").at(0).json);
  const auto& completed = std::get<JobCompleted>(walltime.events.at(1).data);
  EXPECT_EQ(completed.job_id, "w0!1001");
  EXPECT_EQ(completed.state, JobState::kWalltimeReached);
  EXPECT_EQ(completed.return_code, -1);
  EXPECT_EQ(walltime.events.at(0).timestamp, 1'005'200);

  const Message paper = parse_message(captured_run("paper_easy_bf").at(0).json);
  EXPECT_EQ(machine_count(std::get<JobCompleted>(paper.events.at(0).data).alloc), 16);

  const Message forwarded = parse_message(captured_run("onejob_fwdprof").at(2).json);
  EXPECT_EQ(std::get<JobSubmitted>(forwarded.events.at(0).data).forwarded_delay, from_seconds(10));
  // The delay is all batfill keeps of a forwarded profile, and all it writes back (messages.hpp).
  const std::string again = write_message(forwarded);
  EXPECT_NE(again.find(R"("profile":{"type":"delay","delay":10.0}})"), std::string::npos) << again;
}

// A submission built in-process carries its user fields and forwarded delay typed only; the
// codec writes them as the JSON a Batsim would send, and reads them back typed.
TEST(Codec, TypedUserFieldsAndDelayAreWrittenAsJson) {
  SubmittedJob job = sample_job();
  job.user_fields = TypedUserFields{12, "3"};
  JobSubmitted submitted{job};
  submitted.forwarded_delay = 61'500'000;
  const std::string text = write_message(single(0, submitted));
  EXPECT_NE(text.find(R"("walltime":7200.000000,"user":12,"queue":3},"profile":)"
                      R"({"type":"delay","delay":61.5})"),
            std::string::npos)
      << text;
  const Message message = parse_message(text);
  const auto& parsed = std::get<JobSubmitted>(message.events.at(0).data);
  EXPECT_EQ(typed_user_fields(parsed.job).user, 12);
  EXPECT_EQ(typed_user_fields(parsed.job).queue, "3");
  EXPECT_EQ(std::get<UserFieldsText>(parsed.job.user_fields).json, R"({"user":12,"queue":3})");
  EXPECT_EQ(parsed.forwarded_delay, 61'500'000);

  job.user_fields = TypedUserFields{-1, "long"};
  const std::string named = write_message(single(0, JobSubmitted{job}));
  EXPECT_NE(named.find(R"("walltime":7200.000000,"queue":"long"}})"), std::string::npos) << named;
}

// Values batfill does not read as a user or a queue stay user fields only.
TEST(Codec, UserFieldsOfOtherTypesAreNotTyped) {
  const Message parsed = parse_message(
      R"({"now":0,"events":[{"timestamp":0,"type":"JOB_SUBMITTED","data":{"job_id":"w0!1",)"
      R"("job":{"id":"w0!1","subtime":0,"res":1,"profile":"p","user":"alice","queue":[1]},)"
      R"("profile":{"type":"parallel_homogeneous","cpu":1,"com":0}}}]})");
  const auto& submitted = std::get<JobSubmitted>(parsed.events.at(0).data);
  EXPECT_EQ(typed_user_fields(submitted.job).user, -1);
  EXPECT_EQ(typed_user_fields(submitted.job).queue, "");
  EXPECT_EQ(std::get<UserFieldsText>(submitted.job.user_fields).json,
            R"({"user":"alice","queue":[1]})");
  EXPECT_EQ(submitted.forwarded_delay, kNoTimeLimit);
}

// ---- Errors name the event, its type and the field ------------------------------------------

TEST(Codec, MalformedJson) {
  EXPECT_NE(error_of(R"({"now":0,"events":[)").find("malformed JSON at offset"), std::string::npos);
  EXPECT_NE(error_of("[]").find("must be a JSON object"), std::string::npos);
}

TEST(Codec, MissingEnvelopeFields) {
  EXPECT_EQ(error_of(R"({"events":[]})"), "missing number field 'now'");
  EXPECT_EQ(error_of(R"({"now":0})"), "missing array field 'events'");
  EXPECT_EQ(error_of(R"({"now":"0","events":[]})"), "field 'now' must be a number, got \"0\"");
}

TEST(Codec, UnknownEventType) {
  EXPECT_EQ(error_of(R"({"now":1,"events":[{"timestamp":1,"type":"REQUESTED_CALL","data":{}},)"
                     R"({"timestamp":1,"type":"KILL_EVERYTHING","data":{}}]})"),
            "event 1 (KILL_EVERYTHING): unknown event type 'KILL_EVERYTHING'");
}

// Where the error is travels as data, for a session to add the message number or rename the
// event; the text is made from it when shown.
TEST(Codec, AnErrorCarriesItsEventAndFieldAsData) {
  try {
    parse_message(R"({"now":1,"events":[{"timestamp":1,"type":"REQUESTED_CALL","data":{}},)"
                  R"({"timestamp":1,"type":"JOB_SUBMITTED","data":{"job_id":"w0!1",)"
                  R"("job":{"id":"w0!1","subtime":0,"profile":"p"}}}]})");
    FAIL() << "no error";
  } catch (ProtocolError& e) {
    ASSERT_TRUE(e.event().has_value());
    EXPECT_EQ(e.event()->index, 1u);
    EXPECT_EQ(e.event()->type, "JOB_SUBMITTED");
    EXPECT_EQ(e.field(), "job.res");
    EXPECT_FALSE(e.message().has_value());
    EXPECT_EQ(e.problem(), "missing integer field 'job.res'");
    EXPECT_EQ(std::string(e.in_message(4).what()),
              "message #4: event 1 (JOB_SUBMITTED): missing integer field 'job.res'");
  }
}

TEST(Codec, MissingOrMistypedEventFields) {
  EXPECT_EQ(
      error_of(
          R"({"now":1,"events":[{"timestamp":1,"type":"REQUESTED_CALL","data":{}},)"
          R"({"timestamp":1,"type":"NOTIFY","data":{"type":"no_more_static_job_to_submit"}},)"
          R"({"timestamp":1,"type":"JOB_COMPLETED","data":{"job_state":"COMPLETED_SUCCESSFULLY"}}]})"),
      "event 2 (JOB_COMPLETED): missing string field 'job_id'");
  EXPECT_EQ(
      error_of(
          R"({"now":1,"events":[{"timestamp":1,"type":"JOB_SUBMITTED","data":{"job_id":"w0!1",)"
          R"("job":{"id":"w0!1","subtime":0,"profile":"p"}}}]})"),
      "event 0 (JOB_SUBMITTED): missing integer field 'job.res'");
  EXPECT_EQ(
      error_of(
          R"({"now":1,"events":[{"timestamp":1,"type":"JOB_SUBMITTED","data":{"job_id":"w0!1",)"
          R"("job":{"id":"w0!1","subtime":0,"res":"2","profile":"p"}}}]})"),
      "event 0 (JOB_SUBMITTED): field 'job.res' must be an integer, got \"2\"");
  EXPECT_EQ(error_of(R"({"now":1,"events":[{"timestamp":1,"type":"REQUESTED_CALL"}]})"),
            "event 0 (REQUESTED_CALL): missing object field 'data'");
  EXPECT_EQ(error_of(R"({"now":1,"events":[{"type":"REQUESTED_CALL","data":{}}]})"),
            "event 0 (REQUESTED_CALL): missing number field 'timestamp'");
  EXPECT_EQ(error_of(R"({"now":1,"events":[{"timestamp":1,"data":{}}]})"),
            "event 0: missing string field 'type'");
  EXPECT_NE(
      error_of(
          R"({"now":1,"events":[{"timestamp":1,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"3-1"}}]})")
          .find("event 0 (EXECUTE_JOB): field 'alloc' is not an interval set"),
      std::string::npos);
  EXPECT_NE(
      error_of(
          R"({"now":1,"events":[{"timestamp":1,"type":"NOTIFY","data":{"type":"event_machine_available"}}]})")
          .find("missing string field 'resources'"),
      std::string::npos);
}

// A tolerant parser ignores keys it does not know and does not need v4-only ones.
TEST(Codec, IgnoresUnknownKeysAndAcceptsBatsim3Begins) {
  const Message message = parse_message(
      R"({"now":0,"extra":true,"events":[{"timestamp":0,"type":"SIMULATION_BEGINS","data":{)"
      R"("nb_resources":2,"nb_compute_resources":2,"config":{"redis-enabled":false},)"
      R"("compute_resources":[{"id":0,"name":"a","state":"idle","properties":{"role":""}},)"
      R"({"id":1,"name":"b","state":"idle","properties":{}}],"novelty":[1,2]}}]})");
  const auto& begins = std::get<SimulationBegins>(message.events.at(0).data);
  EXPECT_EQ(begins.nb_compute_resources, 2);
  EXPECT_EQ(begins.sched_config, "");
  EXPECT_EQ(begins.compute_resources.at(1).name, "b");
}

}  // namespace
}  // namespace batfill::protocol

namespace batfill::protocol {
namespace {

// JOB_COMPLETED's job_state is one of Batsim's final states, read into the model's JobState;
// any other text is refused naming them.
TEST(Codec, AJobStateOutsideBatsimsIsRefused) {
  EXPECT_EQ(batfill::testing::parse_error_of(
                R"({"now":1,"events":[{"timestamp":1,"type":"JOB_COMPLETED","data":)"
                R"({"job_id":"w0!1","job_state":"EXPLODED"}}]})"),
            "event 0 (JOB_COMPLETED): field 'job_state' is 'EXPLODED', not a state Batsim ends a "
            "job in (COMPLETED_SUCCESSFULLY, COMPLETED_FAILED, COMPLETED_WALLTIME_REACHED, "
            "COMPLETED_KILLED, REJECTED)");
}

// One walltime rule for both protocols: absent, null or -1 is no limit, else > 0; the same
// words for a bad one.
TEST(Codec, BothCodecsShareTheWalltimeRule) {
  const auto batsim4 = [](const std::string& walltime) {
    const std::string job = R"({"id":"w0!1","subtime":0,"res":1,"profile":"p")" +
                            (walltime.empty() ? "" : R"(,"walltime":)" + walltime) + "}";
    const std::string text = R"({"now":0,"events":[{"timestamp":0,"type":"JOB_SUBMITTED",)"
                             R"("data":{"job_id":"w0!1","job":)" +
                             job + "}}]}";
    return text;
  };
  const auto batsim5 = [](const std::string& walltime) {
    return R"({"now":0,"events":[{"timestamp":0,"event_type":"JobSubmittedEvent","event":)"
           R"({"job_id":"w0!1","job":{"resource_request":1)" +
           (walltime.empty() ? "" : R"(,"walltime":)" + walltime) + "}}}]}";
  };
  const auto limit4 = [&](const std::string& walltime) {
    return std::get<JobSubmitted>(parse_message(batsim4(walltime)).events[0].data).job.walltime;
  };
  const auto limit5 = [&](const std::string& walltime) {
    return std::get<JobSubmitted>(batsim5::decode(batsim5(walltime)).message.events[0].data)
        .job.walltime;
  };
  for (const std::string none : {"", "null", "-1"}) {
    EXPECT_EQ(limit4(none), kNoTimeLimit) << none;
    EXPECT_EQ(limit5(none), kNoTimeLimit) << none;
  }
  EXPECT_EQ(limit4("60"), from_seconds(60));
  EXPECT_EQ(limit5("60"), from_seconds(60));
  EXPECT_EQ(batfill::testing::parse_error_of(batsim4("0")),
            "event 0 (JOB_SUBMITTED): field 'job.walltime' must be > 0, or -1 or absent for no "
            "limit, got 0.000000");
  try {
    batsim5::decode(batsim5("-2"));
    ADD_FAILURE() << "no error";
  } catch (const ProtocolError& e) {
    EXPECT_STREQ(e.what(),
                 "event 0 (JobSubmittedEvent): field 'event.job.walltime' must be > 0, or -1 or "
                 "absent for no limit, got -2.000000");
  }
}

}  // namespace
}  // namespace batfill::protocol
