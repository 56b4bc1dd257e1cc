#include "per_event_batching.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace batfill::simulator {
namespace {

struct Trigger {
  const protocol::Event* event;
  bool at_limit;  // a completion at the job's walltime or at its planned end
};

// pyss's order: submissions (and other events) first, then terminations in the order the jobs
// started.
std::vector<Trigger> triggers_in_pyss_order(
    const protocol::Message& instant, const std::vector<Completion>& completions,
    const JobTable& jobs, const std::function<Time(const std::string&)>& planned_end) {
  std::vector<Trigger> triggers;
  std::vector<std::pair<std::uint64_t, Trigger>> terminations;
  std::size_t next = 0;
  for (const protocol::Event& event : instant.events) {
    if (std::holds_alternative<protocol::RequestedCall>(event.data)) continue;  // not a trigger
    if (!std::holds_alternative<protocol::JobCompleted>(event.data)) {
      triggers.push_back({&event, false});
      continue;
    }
    const Completion& completion = completions[next++];
    const SimulatedJob& job = jobs[completion.job];
    const bool at_limit = completion.state == FinalState::kCompletedWalltimeReached ||
                          (planned_end && completion.time >= planned_end(job.batsim_id));
    terminations.push_back({job.start_order, {&event, at_limit}});
  }
  std::sort(terminations.begin(), terminations.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& termination : terminations) triggers.push_back(termination.second);
  return triggers;
}

}  // namespace

// A job that reached its planned end (its walltime, or its predicted end) is already free in pyss's
// availability profile before its termination is handled, so those completions all join the
// instant's first request, and their own passes later find nothing new to do (a pass on an
// unchanged state starts nothing). pyss corrects predictions before anything else in the second,
// without a pass of their own, so wake-ups (which carry the corrections) join the first request
// too.
void exchange_per_event(const protocol::Message& instant,
                        const std::vector<Completion>& completions, const JobTable& jobs,
                        const std::function<void(const protocol::Message&)>& send,
                        const std::function<Time(const std::string&)>& planned_end) {
  const std::vector<Trigger> triggers =
      triggers_in_pyss_order(instant, completions, jobs, planned_end);
  protocol::Message request;
  request.now = instant.now;
  for (const protocol::Event& event : instant.events) {
    if (std::holds_alternative<protocol::RequestedCall>(event.data))
      request.events.push_back(event);
  }
  for (const Trigger& trigger : triggers) {
    if (trigger.at_limit) request.events.push_back(*trigger.event);
  }
  bool first = true;
  for (const Trigger& trigger : triggers) {
    if (trigger.at_limit && !first) continue;
    if (!trigger.at_limit) request.events.push_back(*trigger.event);
    send(request);
    request.events.clear();
    first = false;
  }
  if (first && !request.events.empty()) send(request);  // wake-ups alone
}

}  // namespace batfill::simulator
