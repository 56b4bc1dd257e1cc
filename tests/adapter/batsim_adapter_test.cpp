// The Batsim adapter: requests of a real Batsim 4.2.1 run, hand-made instants whose expected
// starts are derived from the spec's rules, and the rules a reply must obey for Batsim not to
// abort (docs/protocol.md#execute_job, docs/protocol.md#quirks-of-a-real-batsim-421).

#include "batfill/adapter/batsim_adapter.hpp"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <map>
#include <set>
#include <sstream>

#include "batfill/protocol/codec.hpp"

#include "../support/batsim_capture.hpp"

namespace batfill::adapter {
namespace {

using namespace batfill::protocol;

using protocol::testing::captured_run;

Message request(Time now, std::vector<EventData> events) {
  Message message;
  message.now = now;
  for (EventData& data : events) message.events.push_back(Event{now, std::move(data)});
  return message;
}

SimulationBegins platform(int machines, std::string sched_config = "") {
  SimulationBegins begins;
  begins.nb_compute_resources = machines;
  for (int id = 0; id < machines; ++id) {
    begins.compute_resources.push_back({id, "node" + std::to_string(id), "idle", {}});
  }
  begins.sched_config = std::move(sched_config);
  return begins;
}

JobSubmitted submission(const std::string& id, int res, std::optional<int> walltime_s = 100) {
  SubmittedJob job;
  job.id = id;
  job.res = res;
  job.profile = "p";
  if (walltime_s) job.walltime = from_seconds(*walltime_s);
  return JobSubmitted{job};
}

JobCompleted completion(const std::string& id, const std::string& alloc,
                        JobState state = JobState::kSucceeded) {
  return JobCompleted{id, state, 0, parse_machine_set(alloc)};
}

// What Batsim checks in a reply, and what the spec requires of every decision: replies echo
// `now`, decisions are stamped with it, REJECT_JOB has exactly job_id, EXECUTE_JOB exactly
// job_id and a canonical alloc of res machines that are neither running a job nor unavailable.
class BatsimRules {
 public:
  explicit BatsimRules(int machines) : machines_(machines) {}

  // Checks `reply` to `request` and returns its decisions as job id -> alloc ("" = rejected).
  std::map<std::string, std::string> check(const Message& request, const Message& reply) {
    for (const Event& event : request.events) {
      if (const auto* s = std::get_if<JobSubmitted>(&event.data)) res_[s->job.id] = s->job.res;
      if (const auto* c = std::get_if<JobCompleted>(&event.data))
        busy_ -= running_.at(c->job_id), running_.erase(c->job_id);
      if (const auto* n = std::get_if<BatsimNotify>(&event.data)) {
        if (n->kind == Notification::kMachinesUnavailable) unavailable_ += n->resources;
        if (n->kind == Notification::kMachinesAvailable) unavailable_ -= n->resources;
      }
    }
    EXPECT_EQ(reply.now, request.now);
    rapidjson::Document written;
    written.Parse(write_message(reply).c_str());
    std::map<std::string, std::string> decisions;
    bool executed = false;
    for (const auto& event : written["events"].GetArray()) {
      EXPECT_EQ(from_fractional_seconds(event["timestamp"].GetDouble()), request.now);
      const std::string type = event["type"].GetString();
      const auto& data = event["data"];
      const std::string id = data["job_id"].GetString();
      EXPECT_TRUE(decided_.insert(id).second) << id << " decided twice";
      if (type == "REJECT_JOB") {
        EXPECT_EQ(data.MemberCount(), 1u);
        EXPECT_FALSE(executed) << "rejections come before starts";
        decisions[id] = "";
        continue;
      }
      if (type != "EXECUTE_JOB") continue;
      executed = true;
      EXPECT_EQ(data.MemberCount(), 2u);
      const std::string alloc = data["alloc"].GetString();
      const MachineSet machines = parse_machine_set(alloc);
      EXPECT_EQ(to_string(machines), alloc) << "not canonical";
      EXPECT_EQ(machine_count(machines), res_.at(id)) << id;
      EXPECT_TRUE(boost::icl::contains(machine_range(0, machines_ - 1), machines)) << alloc;
      EXPECT_TRUE(boost::icl::disjoint(machines, busy_)) << id << " on busy machines " << alloc;
      EXPECT_TRUE(boost::icl::disjoint(machines, unavailable_))
          << id << " on unavailable " << alloc;
      busy_ += machines;
      running_[id] = machines;
      decisions[id] = alloc;
    }
    return decisions;
  }

 private:
  int machines_;
  std::map<std::string, int> res_;
  std::map<std::string, MachineSet> running_;
  MachineSet busy_;
  MachineSet unavailable_;
  std::set<std::string> decided_;
};

// A scheduler and its rules checker, logging into a string.
struct Session {
  explicit Session(int machines, const std::string& policy = "easy", std::string sched_config = "")
      : scheduler(policy, {}, Log(Verbosity::kQuiet, log)), rules(machines) {
    EXPECT_TRUE(send(0, {platform(machines, std::move(sched_config))}).empty());
  }
  std::map<std::string, std::string> send(Time now, std::vector<EventData> events) {
    const Message message = request(now, std::move(events));
    return rules.check(message, scheduler.exchange(message));
  }
  std::map<std::string, std::string> send_at(int seconds, std::vector<EventData> events) {
    return send(from_seconds(seconds), std::move(events));
  }

  std::ostringstream log;
  BatsimAdapter scheduler;
  BatsimRules rules;
};

using Decisions = std::map<std::string, std::string>;

std::string error_of(Session& session, Time now, std::vector<EventData> events) {
  try {
    session.send(now, std::move(events));
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "(no error)";
}

// ---- Real Batsim runs ------------------------------------------------------------------------

// The captured runs passed batsched's own --sched-cfg, which is no batfill option.
void without_sched_config(Message& message) {
  for (Event& event : message.events) {
    if (auto* begins = std::get_if<SimulationBegins>(&event.data)) begins->sched_config.clear();
  }
}

// Replays the requests of a captured run and compares each reply with batsched's (easy_bf with
// lowest-id allocation decides the same as the spec's EASY on these one-node jobs).
void replay_capture(const std::string& run, BatsimAdapter& scheduler, BatsimRules& rules,
                    int last_exchange) {
  const auto lines = captured_run(run);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    if (!lines[i].from_batsim || lines[i].exchange > last_exchange) continue;
    ASSERT_FALSE(lines[i + 1].from_batsim);
    Message message = parse_message(lines[i].json);
    without_sched_config(message);
    const Message reply = scheduler.exchange(message);
    rules.check(message, reply);
    const Message expected = parse_message(lines[i + 1].json);
    ASSERT_EQ(reply.events.size(), expected.events.size())
        << run << " exchange " << lines[i].exchange;
    for (std::size_t e = 0; e < reply.events.size(); ++e) {
      EXPECT_EQ(event_type_name(reply.events[e].data), event_type_name(expected.events[e].data));
      const auto& got = std::get<ExecuteJob>(reply.events[e].data);
      const auto& want = std::get<ExecuteJob>(expected.events[e].data);
      EXPECT_EQ(got.job_id, want.job_id);
      EXPECT_EQ(to_string(got.alloc), to_string(want.alloc));
    }
  }
}

TEST(BatsimAdapter, AnswersTheCapturedOneJobRunLikeBatsched) {
  std::ostringstream log;
  BatsimAdapter scheduler("easy", {}, Log(Verbosity::kQuiet, log));
  BatsimRules rules(4);
  replay_capture("onejob_fwdprof", scheduler, rules, 4);
  // What goes on the wire for exchange 1 (batsched wrote the same decision with these times).
  BatsimAdapter again("easy", {}, Log(Verbosity::kQuiet, log));
  const auto lines = captured_run("onejob_fwdprof");
  Message begins = parse_message(lines.at(0).json);
  without_sched_config(begins);
  again.exchange(begins);
  EXPECT_EQ(write_message(again.exchange(parse_message(lines.at(2).json))),
            R"({"now":0.000045,"events":[{"timestamp":0.000045,"type":"EXECUTE_JOB",)"
            R"("data":{"job_id":"w0!1","alloc":"0"}}]})");
  EXPECT_TRUE(scheduler.finished());
  EXPECT_EQ(scheduler.machine_names().at(3), "Jupiter");
}

TEST(BatsimAdapter, UnknownSchedConfigKeyIsAnError) {
  std::ostringstream log;
  BatsimAdapter scheduler("easy", {}, Log(Verbosity::kQuiet, log));
  // The capture's --sched-cfg '{"foo":1}' names no batfill option.
  try {
    scheduler.exchange(parse_message(captured_run("onejob_fwdprof").at(0).json));
    ADD_FAILURE() << "unknown sched-config key accepted";
  } catch (const ProtocolError& e) {
    EXPECT_STREQ(e.what(),
                 "event 0 (SIMULATION_BEGINS): field 'config.sched-config': unknown "
                 "key 'foo' (valid: backfill, order, alloc, predictor, predictor_options, "
                 "corrector, backfill_order, queues, batching)");
  }
}

TEST(BatsimAdapter, AnswersTheCapturedEasySmallRunLikeBatsched) {
  std::ostringstream log;
  BatsimAdapter scheduler("easy", {}, Log(Verbosity::kQuiet, log));
  BatsimRules rules(4);
  // Exchanges 0-5 are contiguous in the capture: w0!0..w0!3 start at once on machines 0..3
  // ("w0!0 at 0.000045 gets alloc 0"), w0!0 then completes with nothing waiting.
  replay_capture("easy_small", scheduler, rules, 5);
  EXPECT_EQ(scheduler.scheduler()->running_count(), 3u);
  EXPECT_EQ(to_string(scheduler.scheduler()->machines_of("w0!3")), "3");
  // The capture skips exchanges 6-16, so w0!9 completing in exchange 21 was never submitted here.
  const auto lines = captured_run("easy_small");
  try {
    scheduler.exchange(parse_message(lines.at(14).json));
    ADD_FAILURE() << "completion of an unknown job accepted";
  } catch (const ProtocolError& e) {
    EXPECT_STREQ(e.what(),
                 "event 0 (JOB_COMPLETED): field 'job_id': job 'w0!9' was never submitted");
  }
}

// ---- One request = one instant ----------------------------------------------------------------

TEST(BatsimAdapter, QueuesJobsOfOneInstantByIdNotMessageOrder) {
  Session session(1);
  // Message order 10, 11, 9; a job-id order would start w0!9 first, then w0!10 (not w0!11).
  EXPECT_EQ(
      session.send_at(0, {submission("w0!10", 1), submission("w0!11", 1), submission("w0!9", 1)}),
      (Decisions{{"w0!9", "0"}}));
  EXPECT_EQ(session.send_at(100, {completion("w0!9", "0")}), (Decisions{{"w0!10", "0"}}));
  EXPECT_EQ(session.send_at(200, {completion("w0!10", "0")}), (Decisions{{"w0!11", "0"}}));
}

TEST(BatsimAdapter, AppliesCompletionsBeforeSubmissionsOfTheSameMessage) {
  Session session(4);
  EXPECT_EQ(session.send_at(0, {submission("w0!0", 4)}), (Decisions{{"w0!0", "0-3"}}));
  // The submission comes first in the message, yet w0!0's machines are free for w0!1 at 50.
  EXPECT_EQ(session.send_at(50, {submission("w0!1", 4), completion("w0!0", "0-3")}),
            (Decisions{{"w0!1", "0-3"}}));
}

// The spec's "batching" case: 10 nodes, (submit, nodes, limit) = (0,3,100) (0,3,100)
// (0,3,300) (1,7,100) (2,4,100); expected starts 0 0 0 100 200. At 100 the two completions free
// 6 nodes together, so the 7-node head starts; handled one by one it would not.
TEST(BatsimAdapter, BatchingCaseOfTheSpec) {
  Session session(10);
  EXPECT_EQ(
      session.send_at(0, {submission("j0", 3), submission("j1", 3), submission("j2", 3, 300)}),
      (Decisions{{"j0", "0-2"}, {"j1", "3-5"}, {"j2", "6-8"}}));
  EXPECT_TRUE(session.send_at(1, {submission("j3", 7)}).empty());
  // j4 (4 nodes) does not fit in the one free node: no backfill.
  EXPECT_TRUE(session.send_at(2, {submission("j4", 4)}).empty());
  EXPECT_EQ(session.send_at(100, {completion("j0", "0-2"), completion("j1", "3-5")}),
            (Decisions{{"j3", "0-5 9"}}));
  EXPECT_EQ(session.send_at(200, {completion("j3", "0-5 9")}), (Decisions{{"j4", "0-3"}}));
}

TEST(BatsimAdapter, StampsEveryDecisionWithTheRequestNow) {
  Session session(2);
  const Message reply = session.scheduler.exchange(
      request(3'000'045, {submission("w0!1", 1), submission("w0!2", 3)}));
  ASSERT_EQ(reply.events.size(), 2u);
  EXPECT_EQ(reply.now, 3'000'045);
  EXPECT_TRUE(std::holds_alternative<RejectJob>(reply.events[0].data));
  EXPECT_TRUE(std::holds_alternative<ExecuteJob>(reply.events[1].data));
  for (const Event& event : reply.events) EXPECT_EQ(event.timestamp, 3'000'045);
}

// ---- Rejections ------------------------------------------------------------------------------

// A job without walltime is not one of them (docs/semantics.md#queues---queues): w0!3 queues ahead
// of w0!4 (ids in number order) and takes machine 0.
TEST(BatsimAdapter, RejectsJobsThatCanNeverRun) {
  Session session(4);
  EXPECT_EQ(session.send_at(0, {submission("w0!4", 1, 10), submission("w0!1", 5),
                                submission("w0!2", 0), submission("w0!3", 1, std::nullopt)}),
            (Decisions{{"w0!1", ""}, {"w0!2", ""}, {"w0!3", "0"}, {"w0!4", "1"}}));
}

TEST(BatsimAdapter, RejectionsCarryTheCoreReason) {
  Session session(4);
  const Message reply = session.scheduler.exchange(request(0, {submission("w0!1", 5)}));
  ASSERT_EQ(reply.events.size(), 1u);
  const auto& rejection = std::get<RejectJob>(reply.events[0].data);
  EXPECT_EQ(rejection.job_id, "w0!1");
  // semantics.md#rejection-at-submission: the job, and why apart, so that the summary groups the
  // reason alone.
  ASSERT_EQ(reply.in_process.rejection_reasons.size(), 1u);
  const Rejection& reason = reply.in_process.rejection_reasons[0];
  EXPECT_EQ(reason.job_id(), "w0!1");
  EXPECT_EQ(reason.why(), "requests 5 nodes but the machine has 4");
  // The reason stays in the process: Batsim 4's REJECT_JOB accepts only job_id.
  EXPECT_EQ(write_message(reply).find(reason.why()), std::string::npos);
}

TEST(BatsimAdapter, PlainFcfsRunsJobsWithoutWalltime) {
  Session session(4, "none");
  EXPECT_EQ(session.send_at(0, {submission("w0!3", 1, std::nullopt)}), (Decisions{{"w0!3", "0"}}));
}

// ---- Other Batsim events ---------------------------------------------------------------------

TEST(BatsimAdapter, EveryCompletionStateFreesTheMachines) {
  Session session(1);
  EXPECT_EQ(session.send_at(0, {submission("a", 1), submission("b", 1), submission("c", 1)}),
            (Decisions{{"a", "0"}}));
  EXPECT_EQ(session.send_at(100, {completion("a", "0", JobState::kWalltimeReached)}),
            (Decisions{{"b", "0"}}));
  // A kill: JOB_COMPLETED first, then the JOB_KILLED acknowledgment.
  EXPECT_EQ(session.send_at(150, {completion("b", "0", JobState::kKilled), JobKilled{{"b"}}}),
            (Decisions{{"c", "0"}}));
}

TEST(BatsimAdapter, MachinesFollowAvailabilityEvents) {
  Session session(2);
  EXPECT_TRUE(
      session.send_at(0, {BatsimNotify{Notification::kMachinesUnavailable, parse_machine_set("0")}})
          .empty());
  EXPECT_EQ(session.send_at(1, {submission("a", 1)}), (Decisions{{"a", "1"}}));
  // Machine 1 becomes unavailable while busy: once a ends, b has nowhere to go, which is fine
  // while an availability event can still come.
  EXPECT_TRUE(
      session.send_at(2, {BatsimNotify{Notification::kMachinesUnavailable, parse_machine_set("1")}})
          .empty());
  EXPECT_TRUE(session.send_at(101, {completion("a", "1"), submission("b", 1)}).empty());
  EXPECT_EQ(session.send_at(
                200, {BatsimNotify{Notification::kMachinesAvailable, parse_machine_set("0")}}),
            (Decisions{{"b", "0"}}));
}

TEST(BatsimAdapter, RefusesToDeadlockWhenMachinesCanNeverComeBack) {
  Session session(1);
  EXPECT_TRUE(
      session
          .send_at(0, {BatsimNotify{Notification::kMachinesUnavailable, parse_machine_set("0")},
                       submission("a", 1)})
          .empty());
  EXPECT_NE(
      error_of(session, from_seconds(5), {BatsimNotify{Notification::kNoMoreExternalEvents, {}}})
          .find("Batsim would deadlock"),
      std::string::npos);
}

TEST(BatsimAdapter, AnswersWaitingTimeQueries) {
  Session session(4);
  session.send_at(0, {submission("a", 4)});
  SubmittedJob two = submission("q2", 2).job;
  SubmittedJob five = submission("q5", 5).job;
  const Message reply = session.scheduler.exchange(
      request(from_seconds(10), {EstimateWaitingTimeQuery{two}, EstimateWaitingTimeQuery{five}}));
  ASSERT_EQ(reply.events.size(), 2u);
  const auto& answer = std::get<EstimateWaitingTimeAnswer>(reply.events[0].data);
  EXPECT_EQ(answer.job_id, "q2");
  EXPECT_EQ(answer.estimated_waiting_time, from_seconds(90));  // a ends at 0 + 100
  EXPECT_EQ(std::get<EstimateWaitingTimeAnswer>(reply.events[1].data).estimated_waiting_time,
            from_seconds(-1));  // more nodes than the machine has
}

TEST(BatsimAdapter, LogsAndIgnoresWhatItDoesNotUse) {
  Session session(2);
  EXPECT_TRUE(session
                  .send_at(1, {BatsimNotify{Notification::kOther, {}, "my_custom_event"},
                               RequestedCall{}, ResourceStateChanged{parse_machine_set("0"), "1"},
                               BatsimAnswer{R"({"consumed_energy":3.5})"},
                               BatsimNotify{Notification::kNoMoreStaticJobs, {}}})
                  .empty());
  EXPECT_NE(session.log.str().find("unknown NOTIFY type 'my_custom_event' ignored"),
            std::string::npos);
  EXPECT_NE(session.log.str().find("event 2 (RESOURCE_STATE_CHANGED): not expected"),
            std::string::npos);
  EXPECT_NE(session.log.str().find("event 3 (ANSWER): not expected"), std::string::npos);
}

// Batsim cannot grow an allocation (docs/semantics.md#resize-requests-of-running-jobs): a job whose
// workload gives it resize requests is warned about once, by name, and runs as any other; a user
// field that only mentions the word inside a value is no request.
TEST(BatsimAdapter, WarnsOnceOfAJobCarryingResizeRequestsAndRunsIt) {
  Session session(4);
  JobSubmitted resizing = submission("w0!1", 2);
  resizing.job.user_fields = UserFieldsText{R"({"resize":[{"after":10,"nodes":2}]})"};
  JobSubmitted mentioning = submission("w0!2", 2);
  mentioning.job.user_fields = UserFieldsText{R"({"note":"resize later"})"};
  const Decisions decisions = session.send_at(0, {resizing, mentioning});
  EXPECT_EQ(decisions.size(), 2U);
  const std::string log = session.log.str();
  const std::string warning = "job 'w0!1' carries resize requests";
  ASSERT_NE(log.find(warning), std::string::npos) << log;
  EXPECT_EQ(log.find(warning, log.find(warning) + 1), std::string::npos) << log;
  EXPECT_EQ(log.find("job 'w0!2' carries"), std::string::npos) << log;
}

// The embedded simulator's own resize events (docs/semantics.md#resize-requests-of-running-jobs), 4
// machines, easy: a (2 nodes) starts at 0 on 0-1; at 10 s its first request, for 2 nodes, finds
// nothing waiting and is granted the free 2-3 at once. A job whose requests the simulator replays
// gets no warning. A request named otherwise than the core names it, or of a job not running, is
// refused naming the request. They travel beside the events, as no codec can carry them.
TEST(BatsimAdapter, ReplayedResizeRequestsAreGrantedOrRefused) {
  const auto started_adapter = [](std::ostringstream& log) {
    auto adapter =
        std::make_unique<BatsimAdapter>("easy", SchedulerOptions{}, Log(Verbosity::kQuiet, log));
    Message begins = request(0, {platform(4)});
    begins.in_process.resize_requests_replayed = true;
    adapter->exchange(begins);
    JobSubmitted a = submission("w0!a", 2);
    a.job.user_fields = UserFieldsText{R"({"resize":[{"after":10,"nodes":2}]})"};
    const Message started = adapter->exchange(request(0, {a}));
    EXPECT_EQ(to_string(std::get<ExecuteJob>(started.events.at(0).data).alloc), "0-1");
    return adapter;
  };
  std::ostringstream log;
  const auto adapter = started_adapter(log);
  const auto resize_request = [](const ResizeRequested& requested) {
    Message message = request(from_seconds(10), {});
    message.in_process.resize_requests.push_back(requested);
    return message;
  };
  const Message reply = adapter->exchange(resize_request({"w0!a", "w0!a#resize1", 2}));
  EXPECT_TRUE(reply.events.empty());
  ASSERT_EQ(reply.in_process.grants.size(), 1U);
  const GrantResize& grant = reply.in_process.grants[0];
  EXPECT_EQ(grant.request_id, "w0!a#resize1");
  EXPECT_EQ(to_string(grant.alloc), "2-3");
  EXPECT_EQ(log.str().find("carries resize requests"), std::string::npos) << log.str();

  const auto error_of = [&](const ResizeRequested& requested) -> std::string {
    std::ostringstream quiet;
    const auto fresh = started_adapter(quiet);
    try {
      fresh->exchange(resize_request(requested));
    } catch (const ProtocolError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_of({"w0!a", "w0!a#resize2", 1}),
            "resize request 'w0!a#resize2': job 'w0!a' makes request 'w0!a#resize1'");
  EXPECT_EQ(error_of({"w0!z", "w0!z#resize1", 1}),
            "resize request 'w0!z#resize1': resize request of job 'w0!z', which is not running");
}

// A real Batsim reports a walltime kill late, possibly in one message with another job's early
// completion (docs/protocol.md#quirks-of-a-real-batsim-421 (messaging latency)).
// conservative-classic, 10 machines: A (6, 11 s) and E (4, 50 s) start at 0; H (6, 100 s) at 1 is
// reserved from A's planned end, 11; B (5, 10,000 s) at 2 from H's end, 111 (E's 4 machines alone
// are too few). At 11.000002 A, 2 µs late, and E, early, end in one message: H starts on A's
// machines; B stays reserved from 111. The reply is valid and nobody waits on an idle machine
// (docs/semantics.md#conservative-classic--feitelson--weil-1998).
TEST(BatsimAdapter, ConservativeBfStartsTheHeadAtALateReportBesideAnEarlyOne) {
  Session session(10, "conservative-classic");
  EXPECT_EQ(session.send_at(0, {submission("A", 6, 11), submission("E", 4, 50)}),
            (Decisions{{"A", "0-5"}, {"E", "6-9"}}));
  EXPECT_TRUE(session.send_at(1, {submission("H", 6, 100)}).empty());
  EXPECT_TRUE(session.send_at(2, {submission("B", 5, 10000)}).empty());
  EXPECT_EQ(session.send(from_seconds(11) + 2, {completion("A", "0-5", JobState::kWalltimeReached),
                                                completion("E", "6-9")}),
            (Decisions{{"H", "0-5"}}));
  EXPECT_EQ(
      session.send(from_seconds(111) + 4, {completion("H", "0-5", JobState::kWalltimeReached)}),
      (Decisions{{"B", "0-4"}}));
}

// At debug verbosity each job's first reservation under conservative-classic is logged once
// (docs/semantics.md#conservative-classic--feitelson--weil-1998). 4 machines, 100 s limits: at 1, a
// (4 nodes) starts and b (4 nodes) is reserved from a's planned end, 101. At 101 a ends and b
// starts: no second line for b.
TEST(BatsimAdapter, LogsEachFirstReservationOnceAtDebugLevel) {
  std::ostringstream log;
  BatsimAdapter scheduler("conservative-classic", {}, Log(Verbosity::kDebug, log));
  scheduler.exchange(request(0, {platform(4)}));
  scheduler.exchange(request(from_seconds(1), {submission("a", 4), submission("b", 4)}));
  scheduler.exchange(request(from_seconds(101), {completion("a", "0-3")}));
  const std::string text = log.str();
  EXPECT_NE(text.find("reserve a from 1.000000 s (first reservation, at 1.000000 s)"),
            std::string::npos)
      << text;
  const std::size_t b = text.find("reserve b from 101.000000 s (first reservation, at 1.000000 s)");
  EXPECT_NE(b, std::string::npos) << text;
  EXPECT_EQ(text.find("reserve b", b + 1), std::string::npos) << text;
}

TEST(BatsimAdapter, EndsWithAnEmptyReply) {
  Session session(2);
  session.send_at(0, {submission("a", 1)});
  session.send_at(10, {completion("a", "0")});
  const Message reply = session.scheduler.exchange(request(from_seconds(10), {SimulationEnds{}}));
  EXPECT_TRUE(reply.events.empty());
  EXPECT_EQ(reply.now, from_seconds(10));
  EXPECT_TRUE(session.scheduler.finished());
  EXPECT_THROW(session.scheduler.exchange(request(from_seconds(11), {RequestedCall{}})),
               ProtocolError);
}

std::string exchange_error(BatsimAdapter& scheduler, Time now) {
  try {
    scheduler.exchange(request(now, {RequestedCall{}}));
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(BatsimAdapter, NowGoingBackwardsIsAProtocolError) {
  Session session(2);
  session.send_at(10, {submission("a", 1)});
  EXPECT_EQ(exchange_error(session.scheduler, from_seconds(9)),
            "'now' 9.000000 s is earlier than the previous message's 10.000000 s");
  // The same `now` again is fine: Batsim sends several messages per instant.
  EXPECT_EQ(exchange_error(session.scheduler, from_seconds(10)), "(no error)");
}

TEST(BatsimAdapter, NegativeNowIsAProtocolError) {
  Session session(2);
  EXPECT_EQ(exchange_error(session.scheduler, -1), "'now' is -0.000001 s: must be >= 0");
}

// ---- Settings --------------------------------------------------------------------------------

TEST(BatsimAdapter, SchedConfigOverridesTheConstructorSettings) {
  Session session(4, "easy", R"({"backfill":"none","alloc":"contiguous","order":"fcfs"})");
  EXPECT_EQ(session.scheduler.policy(), "none");
  EXPECT_EQ(session.scheduler.options().allocation, AllocationRule::kContiguous);
  EXPECT_EQ(session.send_at(1, {submission("w0!1", 1, std::nullopt)}), (Decisions{{"w0!1", "0"}}));
}

TEST(BatsimAdapter, BuildsTheMachineTableFromResourceIds) {
  std::ostringstream log;
  BatsimAdapter scheduler("easy", {}, Log(Verbosity::kQuiet, log));
  SimulationBegins begins = platform(3);
  begins.compute_resources = {{2, "a10", "idle", {}}, {0, "a0", "idle", {}}, {1, "a1", "idle", {}}};
  scheduler.exchange(request(0, {begins}));
  EXPECT_EQ(scheduler.machine_names(), (std::vector<std::string>{"a0", "a1", "a10"}));
}

TEST(BatsimAdapter, UnknownPolicyFailsAtConstruction) {
  EXPECT_THROW(BatsimAdapter("bogus"), std::invalid_argument);
}

// ---- Errors name the event and the field ------------------------------------------------------

std::string begin_error(SimulationBegins begins) {
  std::ostringstream log;
  BatsimAdapter scheduler("easy", {}, Log(Verbosity::kQuiet, log));
  try {
    scheduler.exchange(request(0, {begins}));
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(BatsimAdapter, RejectsBadSimulationBegins) {
  EXPECT_NE(begin_error(platform(2, R"({"backfill":"bogus"})"))
                .find("event 0 (SIMULATION_BEGINS): field 'config.sched-config': setting "
                      "'backfill' (--backfill): unknown backfilling policy 'bogus'"),
            std::string::npos);
  EXPECT_NE(
      begin_error(platform(2, "fast please")).find("must be a JSON object of batfill options"),
      std::string::npos);
  SimulationBegins repeated = platform(2);
  repeated.compute_resources[1].id = 0;
  EXPECT_NE(
      begin_error(repeated).find("field 'compute_resources': id 0 is out of range or repeated"),
      std::string::npos);
  EXPECT_NE(begin_error(platform(0)).find("'nb_compute_resources' must be > 0"), std::string::npos);
}

TEST(BatsimAdapter, EventBeforeSimulationBegins) {
  std::ostringstream log;
  BatsimAdapter scheduler("easy", {}, Log(Verbosity::kQuiet, log));
  try {
    scheduler.exchange(request(0, {submission("w0!1", 1)}));
    ADD_FAILURE();
  } catch (const ProtocolError& e) {
    EXPECT_STREQ(e.what(), "event 0 (JOB_SUBMITTED): received before SIMULATION_BEGINS");
  }
}

// An empty message first: no event to name, yet no core to run a pass on (a fuzzer found the
// null dereference).
TEST(BatsimAdapter, EmptyMessageBeforeSimulationBegins) {
  std::ostringstream log;
  BatsimAdapter scheduler("easy", {}, Log(Verbosity::kQuiet, log));
  try {
    scheduler.exchange(request(334, {}));
    ADD_FAILURE();
  } catch (const ProtocolError& e) {
    EXPECT_STREQ(e.what(),
                 "message before SIMULATION_BEGINS: the first message must begin the simulation");
  }
}

TEST(BatsimAdapter, InconsistentCompletionsAndSubmissions) {
  Session session(1);
  session.send_at(0, {submission("w0!1", 1), submission("w0!2", 1), submission("w0!3", 5)});
  EXPECT_EQ(error_of(session, 1, {completion("w0!7", "0")}),
            "event 0 (JOB_COMPLETED): field 'job_id': job 'w0!7' was never submitted");
  EXPECT_EQ(error_of(session, 1, {completion("w0!2", "0")}),
            "event 0 (JOB_COMPLETED): field 'job_id': job 'w0!2' completed but was never started");
  EXPECT_EQ(error_of(session, 1, {completion("w0!3", "0")}),
            "event 0 (JOB_COMPLETED): field 'job_id': job 'w0!3' completed but was rejected");
  EXPECT_EQ(error_of(session, 1, {submission("w0!1", 1)}),
            "event 0 (JOB_SUBMITTED): field 'job_id': job 'w0!1' submitted twice");
  EXPECT_EQ(error_of(session, 1, {submission("w0!8", 1), RequestedCall{}, submission("w0!8", 1)}),
            "event 2 (JOB_SUBMITTED): field 'job_id': job 'w0!8' submitted twice");
  EXPECT_EQ(
      error_of(session, 1,
               {BatsimNotify{Notification::kMachinesUnavailable, parse_machine_set("0-1")}}),
      "event 0 (NOTIFY): field 'resources': '0-1' names machines beyond the 1 compute machines");
  EXPECT_EQ(error_of(session, 1, {platform(1)}),
            "event 0 (SIMULATION_BEGINS): the simulation has already begun");
  EXPECT_EQ(error_of(session, 1, {RequestedCall{}, RejectJob{"w0!2"}}),
            "event 1 (REJECT_JOB): a decision, which only a scheduler sends");
}

TEST(BatsimAdapter, CompletionTwiceIsAnError) {
  Session session(1);
  session.send_at(0, {submission("w0!1", 1)});
  session.send_at(5, {completion("w0!1", "0")});
  EXPECT_EQ(error_of(session, from_seconds(6), {completion("w0!1", "0")}),
            "event 0 (JOB_COMPLETED): field 'job_id': job 'w0!1' completed twice");
}

// ---- Predictions and corrections (docs/semantics.md#predictions-correctors-and-backfill-order)
// ---------------------------------

JobSubmitted user_job(const std::string& id, int user) {
  JobSubmitted submitted = submission(id, 4);  // the whole 4-machine platform, walltime 100 s
  submitted.job.user_fields = TypedUserFields{user, ""};
  return submitted;
}

// The CALL_ME_LATER times of a reply.
std::vector<Time> wake_ups(const Message& reply) {
  std::vector<Time> times;
  for (const Event& event : reply.events) {
    if (const auto* call = std::get_if<CallMeLater>(&event.data)) times.push_back(call->at);
  }
  return times;
}

// User 1's jobs a (0-10 s) and b (20-40 s) complete, so c, submitted at 50, is predicted
// (10 + 20) / 2 = 15 s and starts at once: its prediction expires at 50 + 15 = 65. With the
// reqtime corrector the adapter asks to be called then, and at 65 plans c until its walltime.
// Without a corrector it never asks.
std::vector<std::vector<Time>> wake_ups_of_run(const std::string& corrector, Time& prediction) {
  SchedulerOptions options;
  options.predictor = "tsafrir";
  options.corrector = corrector;
  BatsimAdapter adapter("easy-classic", options);
  std::vector<std::vector<Time>> asked;
  const auto step = [&](Time now, std::vector<EventData> events) {
    asked.push_back(wake_ups(adapter.exchange(request(now, std::move(events)))));
  };
  step(0, {platform(4)});
  step(0, {user_job("a", 1)});
  step(from_seconds(10), {completion("a", "0-3")});
  step(from_seconds(20), {user_job("b", 1)});
  step(from_seconds(40), {completion("b", "0-3")});
  step(from_seconds(50), {user_job("c", 1)});
  prediction = adapter.scheduler()->prediction_of("c");
  step(from_seconds(65), {RequestedCall{}});
  if (!corrector.empty()) prediction = adapter.scheduler()->prediction_of("c");
  return asked;
}

TEST(BatsimAdapterPredictions, WakeUpOnlyAtTheNextExpiryWithACorrector) {
  Time prediction = 0;
  const auto asked = wake_ups_of_run("reqtime", prediction);
  const std::vector<std::vector<Time>> expected = {{}, {}, {}, {}, {}, {from_seconds(65)}, {}};
  EXPECT_EQ(asked, expected);
  EXPECT_EQ(prediction, from_seconds(100));
}

// An adapter with easy-classic, tsafrir predictions and a corrector, on 4 machines, after
// user 1's jobs a and b have run `runtime_s` s each: user 1's next jobs are predicted
// ⌊(r + r) / 2⌋ = runtime_s.
BatsimAdapter adapter_after_two_runs(const std::string& corrector, Time runtime_s) {
  SchedulerOptions options;
  options.predictor = "tsafrir";
  options.corrector = corrector;
  BatsimAdapter adapter("easy-classic", options);
  adapter.exchange(request(0, {platform(4)}));
  adapter.exchange(request(0, {user_job("a", 1)}));
  adapter.exchange(request(from_seconds(runtime_s), {completion("a", "0-3")}));
  adapter.exchange(request(from_seconds(20), {user_job("b", 1)}));
  adapter.exchange(request(from_seconds(20 + runtime_s), {completion("b", "0-3")}));
  return adapter;
}

JobSubmitted sized_user_job(const std::string& id, int res, int walltime_s, int user) {
  JobSubmitted submitted = submission(id, res, walltime_s);
  submitted.job.user_fields = TypedUserFields{user, ""};
  return submitted;
}

// Batsim reads the events of a reply one internal message apart (docs/protocol.md#call_me_later),
// so the call comes first, before the decision it follows.
TEST(BatsimAdapterPredictions, TheWakeUpIsTheFirstEventOfItsReply) {
  BatsimAdapter adapter = adapter_after_two_runs("reqtime", 15);
  const Message at_50 = adapter.exchange(request(from_seconds(50), {user_job("c", 1)}));
  ASSERT_EQ(at_50.events.size(), 2u);
  EXPECT_EQ(std::get<CallMeLater>(at_50.events[0].data).at, from_seconds(65));
  EXPECT_EQ(std::get<ExecuteJob>(at_50.events[1].data).job_id, "c");
}

// docs/semantics.md#predictions-correctors-and-backfill-order, zero prediction: a and b ran 0 s, so
// c (3 machines, user 1) is predicted 0 s. At 50, c, d (4 machines) and e (1 machine, walltime 50,
// user 2: predicted its walltime) arrive. The pass starts c; d waits for c, whose planned end is 50
// (its prediction), so e (ending at 100) neither ends by d's shadow time nor fits the 0 extra
// machines. c has outlived its prediction at once: the tsafrir corrector makes it 0 + 60 s, the
// pass runs again, d's shadow time is now 110 and e, ending at 100, backfills at 50. The only call
// is for c's next expiry, 110, first in the reply.
TEST(BatsimAdapterPredictions, AZeroPredictionIsCorrectedInTheSameReply) {
  BatsimAdapter adapter = adapter_after_two_runs("tsafrir", 0);
  const Message at_50 = adapter.exchange(
      request(from_seconds(50), {sized_user_job("c", 3, 100, 1), sized_user_job("d", 4, 100, 2),
                                 sized_user_job("e", 1, 50, 2)}));
  ASSERT_EQ(at_50.events.size(), 3u);
  EXPECT_EQ(std::get<CallMeLater>(at_50.events[0].data).at, from_seconds(110));
  EXPECT_EQ(std::get<ExecuteJob>(at_50.events[1].data).job_id, "c");
  EXPECT_EQ(std::get<ExecuteJob>(at_50.events[2].data).job_id, "e");
  EXPECT_EQ(adapter.scheduler()->prediction_of("c"), from_seconds(60));
  EXPECT_EQ(adapter.scheduler()->corrections_of("c"), 1);
}

// docs/protocol.md#call_me_later, the wake-up lead: user 1's jobs are predicted 15 s. c1 starts at
// 50 (expires at 65, a call is asked for 65), c2 at 50.05 (expires at 65.05, after the pending
// call). At 65 c1 is corrected (reqtime: its walltime); c2 expires 0.05 s later, less than the
// 0.1 s lead, so a call for it could reach Batsim too late: it is corrected at 65 too, and no
// call is left to ask.
TEST(BatsimAdapterPredictions, AnExpiryWithinTheLeadIsCorrectedNow) {
  BatsimAdapter adapter = adapter_after_two_runs("reqtime", 15);
  const Time lead = BatsimAdapter::kWakeUpLead;
  EXPECT_EQ(
      wake_ups(adapter.exchange(request(from_seconds(50), {sized_user_job("c1", 1, 100, 1)}))),
      std::vector<Time>{from_seconds(65)});
  EXPECT_TRUE(wake_ups(adapter.exchange(
                           request(from_seconds(50) + lead / 2, {sized_user_job("c2", 1, 100, 1)})))
                  .empty());
  const Message at_65 = adapter.exchange(request(from_seconds(65), {RequestedCall{}}));
  EXPECT_TRUE(wake_ups(at_65).empty());
  EXPECT_EQ(adapter.scheduler()->prediction_of("c1"), from_seconds(100));
  EXPECT_EQ(adapter.scheduler()->prediction_of("c2"), from_seconds(100));
}

// docs/protocol.md#call_me_later: Batsim answers a call one internal message after the time asked
// for. 4 machines; c1 (user 1, 1 machine) starts at 50, predicted 15 s: a call for 65. At 60, d
// (all 4 machines, queued first by id) waits for c1's planned end, 65, and e (user 2, 3 machines,
// walltime 20 s, no history: predicted 20 s) would end at 80 > 65 with no extra machines: it waits.
// The call arrives at 65.0006; c1 is corrected to its walltime (planned end 150), so e backfills.
// The pass is the instant asked for, 65: e is planned to end at 65 + 20 = 85, not 85.0006, and the
// EXECUTE_JOB carries Batsim's time.
TEST(BatsimAdapterPredictions, AWakeUpIsHandledAtTheTimeAskedFor) {
  BatsimAdapter adapter = adapter_after_two_runs("reqtime", 15);
  adapter.exchange(request(from_seconds(50), {sized_user_job("c1", 1, 100, 1)}));
  const Message at_60 = adapter.exchange(
      request(from_seconds(60), {sized_user_job("d", 4, 100, 1), sized_user_job("e", 3, 20, 2)}));
  EXPECT_TRUE(at_60.events.empty());
  const Time delivered = from_seconds(65) + 600;
  const Message at_65 = adapter.exchange(request(delivered, {RequestedCall{}}));
  ASSERT_EQ(at_65.events.size(), 1u);
  EXPECT_EQ(std::get<ExecuteJob>(at_65.events[0].data).job_id, "e");
  EXPECT_EQ(at_65.events[0].timestamp, delivered);
  EXPECT_EQ(adapter.scheduler()->planned_end_of("e", delivered), from_seconds(85));
}

// Every request makes the corrections due by its `now`, not only the wake-up asked for them: c2
// starts at 50.5 and expires at 65.5, where a call is asked; a completion at 65.5, in a request
// of its own, finds c2 corrected.
TEST(BatsimAdapterPredictions, AnyRequestMakesTheCorrectionsDue) {
  BatsimAdapter adapter = adapter_after_two_runs("reqtime", 15);
  const Time half = from_seconds(1) / 2;
  adapter.exchange(request(from_seconds(50), {sized_user_job("c1", 1, 100, 1)}));
  adapter.exchange(request(from_seconds(50) + half, {sized_user_job("c2", 1, 100, 1)}));
  adapter.exchange(request(from_seconds(65), {RequestedCall{}}));
  adapter.exchange(request(from_seconds(65) + half, {completion("c1", "0")}));
  EXPECT_EQ(adapter.scheduler()->prediction_of("c2"), from_seconds(100));
}

TEST(BatsimAdapterPredictions, NoWakeUpWithoutACorrector) {
  Time prediction = 0;
  const auto asked = wake_ups_of_run("", prediction);
  for (const auto& times : asked) EXPECT_TRUE(times.empty());
  EXPECT_EQ(prediction, from_seconds(15));
}

// Beside Batsim with --forward-profiles-on-submission, a delay profile gives the clairvoyant
// predictor the runtime: 30 s, below the 100 s walltime.
TEST(BatsimAdapterPredictions, ClairvoyantReadsTheForwardedDelayProfile) {
  SchedulerOptions options;
  options.predictor = "clairvoyant";
  BatsimAdapter adapter("easy-classic", options);
  adapter.exchange(request(0, {platform(4)}));
  JobSubmitted a = submission("a", 4);
  a.forwarded_delay = from_seconds(30);  // what the codec reads from {"type":"delay","delay":30}
  adapter.exchange(request(0, {a}));
  EXPECT_EQ(adapter.scheduler()->prediction_of("a"), from_seconds(30));
}

TEST(BatsimAdapterPredictions, SchedConfigSetsThePredictionOptions) {
  BatsimAdapter adapter("easy");
  adapter.exchange(request(0, {platform(4, R"({"backfill":"easy-classic","predictor":"sgd",)"
                                           R"("predictor_options":{"eta":100},)"
                                           R"("corrector":"tsafrir","backfill_order":"sjbf"})")}));
  EXPECT_EQ(adapter.policy(), "easy-classic");
  EXPECT_EQ(adapter.options().predictor, "sgd");
  EXPECT_EQ(adapter.options().predictor_options, (PredictorOptions{{"eta", "100"}}));
  EXPECT_EQ(adapter.options().corrector, "tsafrir");
  EXPECT_EQ(adapter.options().backfill_order, BackfillOrder::kShortestFirst);
}

}  // namespace
}  // namespace batfill::adapter
