// pyss's event handling: submissions first, then terminations in the order the jobs started;
// terminations at the walltime all join the instant's first request.

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "per_event_batching.hpp"

namespace batfill::simulator {
namespace {

protocol::Event completed(const std::string& id) {
  protocol::JobCompleted event;
  event.job_id = id;
  return {0, event};
}

protocol::Event submitted(const std::string& id) {
  protocol::JobSubmitted event;
  event.job.id = id;
  return {0, event};
}

std::string id_of(const protocol::Event& event) {
  if (std::holds_alternative<protocol::RequestedCall>(event.data)) return "wake-up";
  if (const auto* end = std::get_if<protocol::JobCompleted>(&event.data)) {
    return "end " + end->job_id;
  }
  return "submit " + std::get<protocol::JobSubmitted>(event.data).job.id;
}

// Each request the batching sends, as its events' names.
std::vector<std::vector<std::string>> requests_sent(
    const protocol::Message& instant, const std::vector<Completion>& completions,
    const JobTable& jobs, const std::function<Time(const std::string&)>& planned_end = {}) {
  std::vector<std::vector<std::string>> requests;
  exchange_per_event(
      instant, completions, jobs,
      [&](const protocol::Message& request) {
        std::vector<std::string> names;
        for (const protocol::Event& event : request.events) names.push_back(id_of(event));
        requests.push_back(names);
      },
      planned_end);
  return requests;
}

TEST(PerEventBatching, SubmissionsFirstThenTerminationsByStartOrder) {
  // Jobs 0, 1 and 2 started in the order 2, 0, 1 (start_order 1, 2, 0); 0 and 1 end normally,
  // 2 at its walltime. The instant holds the completions as the stand-in collects them (0, 1, 2)
  // and then the submission of job s.
  JobTable jobs(3);
  jobs[0].start_order = 1;
  jobs[1].start_order = 2;
  jobs[2].start_order = 0;
  const std::vector<Completion> completions = {
      {0, 0, FinalState::kCompletedSuccessfully},
      {0, 1, FinalState::kCompletedSuccessfully},
      {0, 2, FinalState::kCompletedWalltimeReached},
  };
  protocol::Message instant;
  instant.events = {completed("j0"), completed("j1"), completed("j2"), submitted("s")};
  // Order of the passes: s, then j2 (started first), j0, j1. j2 reached its walltime, so it
  // joins the first request and gets no pass of its own.
  const std::vector<std::vector<std::string>> expected = {
      {"end j2", "submit s"}, {"end j0"}, {"end j1"}};
  EXPECT_EQ(requests_sent(instant, completions, jobs), expected);
}

TEST(PerEventBatching, AWalltimeEndAloneIsOneRequest) {
  JobTable jobs(1);
  protocol::Message instant;
  instant.events = {completed("j0")};
  const std::vector<std::vector<std::string>> expected = {{"end j0"}};
  EXPECT_EQ(requests_sent(instant, {{0, 0, FinalState::kCompletedWalltimeReached}}, jobs),
            expected);
}

// With predictions (docs/semantics.md §2.9): j0 ends at 50, its planned (predicted) end, j1 at
// 50 before its planned end 80; both ended normally. j0 is free in pyss's profile, so it joins
// the first request, with the wake-up (corrections come first in the second, without a pass).
TEST(PerEventBatching, PlannedEndsAndWakeUpsJoinTheFirstRequest) {
  JobTable jobs(2);
  jobs[0].batsim_id = "j0";
  jobs[0].start_order = 0;
  jobs[1].batsim_id = "j1";
  jobs[1].start_order = 1;
  const Time t = from_seconds(50);
  const std::vector<Completion> completions = {{t, 0, FinalState::kCompletedSuccessfully},
                                               {t, 1, FinalState::kCompletedSuccessfully}};
  protocol::Message instant;
  instant.now = t;
  instant.events = {
      completed("j0"), completed("j1"), submitted("s"), {t, protocol::RequestedCall{}}};
  const auto planned_end = [](const std::string& id) { return from_seconds(id == "j0" ? 50 : 80); };
  const std::vector<std::vector<std::string>> expected = {{"wake-up", "end j0", "submit s"},
                                                          {"end j1"}};
  EXPECT_EQ(requests_sent(instant, completions, jobs, planned_end), expected);
}

}  // namespace
}  // namespace batfill::simulator
