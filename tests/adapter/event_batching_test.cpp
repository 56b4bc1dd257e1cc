// pyss's event handling (docs/semantics.md#event-batching---batching): which events each pass of an
// instant follows, and the adapter applying it to one Batsim request. Expected passes and starts
// are derived by hand from the rules of docs/semantics.md#event-batching---batching and
// docs/semantics.md#easy-classic--lifkas-easy-mualem--feitelson-2001; each case says how.

#include "batfill/adapter/event_batching.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "batfill/adapter/batsim_adapter.hpp"

namespace batfill::adapter {
namespace {

using namespace batfill::protocol;
using Kind = InstantEvent::Kind;

const InstantEvent kSubmission0{Kind::kSubmission, 0};
InstantEvent completion_event(std::size_t index) { return {Kind::kCompletion, index}; }

TEST(PerEventPasses, SubmissionsFirstThenTerminationsByStartOrder) {
  // Completions 0, 1 and 2 of jobs that started in the order 2, 0, 1; 2 ended at its planned
  // end. Passes: the submission (with 2, freed first), then 0, then 1; 2 gets no pass of its own.
  const std::vector<std::vector<InstantEvent>> expected = {
      {completion_event(2), kSubmission0}, {completion_event(0)}, {completion_event(1)}};
  EXPECT_EQ(per_event_passes(1, 0, {{0, 1, false}, {1, 2, false}, {2, 0, true}}), expected);
}

TEST(PerEventPasses, ATerminationAtItsPlannedEndAloneIsOnePass) {
  const std::vector<std::vector<InstantEvent>> expected = {{completion_event(0)}};
  EXPECT_EQ(per_event_passes(0, 0, {{0, 7, true}}), expected);
}

TEST(PerEventPasses, FreedTerminationsJoinTheFirstTerminationsPass) {
  // No submission: the first trigger is the earliest-started termination (1, sequence 3), which
  // did not reach its planned end; 0 (sequence 5) did, and joins that pass.
  const std::vector<std::vector<InstantEvent>> expected = {
      {completion_event(0), completion_event(1)}};
  EXPECT_EQ(per_event_passes(0, 0, {{0, 5, true}, {1, 3, false}}), expected);
}

TEST(PerEventPasses, NotificationsComeAfterSubmissionsAndNoEventsMeanNoPass) {
  const std::vector<std::vector<InstantEvent>> expected = {
      {kSubmission0}, {{Kind::kSubmission, 1}}, {{Kind::kNotification, 0}}};
  EXPECT_EQ(per_event_passes(2, 1, {}), expected);
  EXPECT_TRUE(per_event_passes(0, 0, {}).empty());
}

// ---- The adapter with per-event batching -------------------------------------------------

Message request(Time now, std::vector<EventData> events) {
  Message message;
  message.now = now;
  for (EventData& data : events) message.events.push_back(Event{now, std::move(data)});
  return message;
}

SimulationBegins platform(int machines) {
  SimulationBegins begins;
  begins.nb_compute_resources = machines;
  return begins;
}

// A job of `res` machines; with `runtime_s`, its delay profile is forwarded (the clairvoyant
// predictor reads it).
JobSubmitted job(const std::string& id, int res, int walltime_s, int runtime_s = -1,
                 int user = -1) {
  SubmittedJob submitted;
  submitted.id = id;
  submitted.res = res;
  submitted.profile = "p";
  submitted.walltime = from_seconds(walltime_s);
  submitted.user_fields = TypedUserFields{user, ""};
  JobSubmitted event{submitted};
  if (runtime_s >= 0) event.forwarded_delay = from_seconds(runtime_s);
  return event;
}

JobCompleted completed(const std::string& id) {
  return JobCompleted{id, JobState::kSucceeded, 0, {}};
}

std::vector<std::string> started(const Message& reply) {
  std::vector<std::string> ids;
  for (const Event& event : reply.events) {
    if (const auto* execute = std::get_if<ExecuteJob>(&event.data)) ids.push_back(execute->job_id);
  }
  return ids;
}

// 10 machines, easy-classic, clairvoyant predictions. At 0 jobs 1, 2, 3 (3 machines each,
// walltimes 200, 200, 300) and 6 (1 machine, walltime 200, forwarded runtime 100: predicted to
// end at 100) start in that order; 4 (7 machines, walltime 100) comes at 1 and 5 (4 machines,
// walltime 100) at 2, and both wait. Jobs 1, 2 and 6 end at 100; 1 and 2 early, 6 at its
// planned end. The starts at 100, by hand:
//  per-event: 6 is free in the first pass, which also holds 1's completion (started first):
//    4 machines free; head 4 needs 7, its shadow is 200 (2's planned end), no extra machines;
//    5 fits and ends at 200 <= 200, so it backfills. 2's pass: 3 free, 4 still waits. -> 5.
//  (Were 6 not freed first: 1's pass leaves 3 free, 5 does not fit; 2's pass leaves 6 free and
//    the shadow is now, as 6 is overdue, so 5 cannot end by it; 6's pass frees 7 -> 4.)
//  instant: the three completions free 7 machines together -> 4.
std::vector<std::string> starts_at_100(EventBatching batching) {
  SchedulerOptions options;
  options.predictor = "clairvoyant";
  BatsimAdapter adapter("easy-classic", options, Log(), batching);
  adapter.exchange(request(0, {platform(10)}));
  adapter.exchange(
      request(0, {job("1", 3, 200), job("2", 3, 200), job("3", 3, 300), job("6", 1, 200, 100)}));
  adapter.exchange(request(from_seconds(1), {job("4", 7, 100)}));
  adapter.exchange(request(from_seconds(2), {job("5", 4, 100)}));
  return started(adapter.exchange(
      request(from_seconds(100), {completed("1"), completed("2"), completed("6")})));
}

TEST(PerEventAdapter, AJobAtItsPlannedEndIsFreeInTheFirstPass) {
  EXPECT_EQ(starts_at_100(EventBatching::kPerEvent), std::vector<std::string>{"5"});
  EXPECT_EQ(starts_at_100(EventBatching::kInstant), std::vector<std::string>{"4"});
}

// The wake-up case of batsim_adapter_test (tsafrir, reqtime): user 1's jobs a (0-10 s) and b
// (20-40 s) complete, so c (4 machines, walltime 100), submitted at 50, is predicted
// (10 + 20) / 2 = 15 s and starts, its prediction expiring at 65. With per-event batching pyss
// corrects without a pass, so no wake-up is asked: a request at 65 holding only events that make
// no pass corrects nothing yet; the next request, at 70, makes the correction first (c planned
// until its walltime, 100 s).
TEST(PerEventAdapter, CorrectionsWaitForTheNextPassWithoutAWakeUp) {
  SchedulerOptions options;
  options.predictor = "tsafrir";
  options.corrector = "reqtime";
  BatsimAdapter adapter("easy-classic", options, Log(), EventBatching::kPerEvent);
  adapter.exchange(request(0, {platform(4)}));
  adapter.exchange(request(0, {job("a", 4, 100, -1, 1)}));
  adapter.exchange(request(from_seconds(10), {completed("a")}));
  adapter.exchange(request(from_seconds(20), {job("b", 4, 100, -1, 1)}));
  adapter.exchange(request(from_seconds(40), {completed("b")}));
  const Message at_50 = adapter.exchange(request(from_seconds(50), {job("c", 4, 100, -1, 1)}));
  ASSERT_EQ(at_50.events.size(), 1u);  // EXECUTE_JOB c, and no CALL_ME_LATER
  EXPECT_EQ(std::get<ExecuteJob>(at_50.events[0].data).job_id, "c");

  const Message at_65 = adapter.exchange(request(from_seconds(65), {RequestedCall{}}));
  EXPECT_TRUE(at_65.events.empty());
  EXPECT_EQ(adapter.scheduler()->prediction_of("c"), from_seconds(15));

  const Message at_70 = adapter.exchange(request(from_seconds(70), {job("d", 4, 100, -1, 1)}));
  EXPECT_TRUE(at_70.events.empty());  // d waits for c
  EXPECT_EQ(adapter.scheduler()->prediction_of("c"), from_seconds(100));
  EXPECT_EQ(adapter.scheduler()->corrections_of("c"), 1);
}

TEST(PerEventAdapter, SchedConfigChoosesTheBatching) {
  BatsimAdapter adapter("easy-classic");
  SimulationBegins begins = platform(4);
  begins.sched_config = R"({"batching":"per-event"})";
  adapter.exchange(request(0, {begins}));
  EXPECT_EQ(adapter.batching(), EventBatching::kPerEvent);
}

}  // namespace
}  // namespace batfill::adapter
