#include "batfill/adapter/event_batching.hpp"

#include <algorithm>
#include <stdexcept>

namespace batfill::adapter {

EventBatching parse_event_batching(const std::string& name) {
  if (name == "instant") return EventBatching::kInstant;
  if (name == "per-event") return EventBatching::kPerEvent;
  throw std::invalid_argument("unknown event batching '" + name + "' (valid: instant, per-event)");
}

// A job that reached its planned end (its walltime, or its predicted end) is already free in
// pyss's availability profile before its termination is handled, so those terminations all
// come first, and their own passes would find nothing new to do (a pass on an unchanged state
// starts nothing).
std::vector<std::vector<InstantEvent>> per_event_passes(std::size_t submissions,
                                                        std::size_t notifications,
                                                        std::vector<Termination> terminations) {
  using Kind = InstantEvent::Kind;
  struct Trigger {
    InstantEvent event;
    bool at_planned_end;
  };
  std::stable_sort(terminations.begin(), terminations.end(),
                   [](const Termination& a, const Termination& b) {
                     return a.start_sequence < b.start_sequence;
                   });
  std::vector<Trigger> triggers;
  for (std::size_t i = 0; i < submissions; ++i) triggers.push_back({{Kind::kSubmission, i}, false});
  for (std::size_t i = 0; i < notifications; ++i) {
    triggers.push_back({{Kind::kNotification, i}, false});
  }
  std::vector<InstantEvent> first;
  for (const Termination& termination : terminations) {
    const InstantEvent event{Kind::kCompletion, termination.index};
    if (termination.at_planned_end) first.push_back(event);
    triggers.push_back({event, termination.at_planned_end});
  }
  std::vector<std::vector<InstantEvent>> passes;
  for (const Trigger& trigger : triggers) {
    if (passes.empty()) {
      passes.push_back(first);
      if (!trigger.at_planned_end) passes.back().push_back(trigger.event);
    } else if (!trigger.at_planned_end) {
      passes.push_back({trigger.event});
    }
  }
  return passes;
}

}  // namespace batfill::adapter
