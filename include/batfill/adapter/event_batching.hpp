#pragma once
// How batfill's scheduler takes the events of one Batsim request
// (docs/semantics.md#event-batching---batching): as one instant, the spec's rule, or one pass per
// event as pyss (predictsim, SC'15) handles them.
//
// The pyss rule needs the scheduler's own plan (which completing jobs reached their planned
// end), so it is applied by the scheduler, never by Batsim's side: Batsim, or the embedded
// stand-in, sends one request per instant and batfill splits it
// (docs/protocol.md#one-request-one-instant).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace batfill::adapter {

enum class EventBatching {
  // One pass per request: all completions, then all submissions (docs/semantics.md#one-instant).
  kInstant,
  // One pass per event: submissions first, then completions in the order the jobs started; a
  // job that reached its planned end is free in the first pass
  // (docs/semantics.md#event-batching---batching).
  kPerEvent,
};

// "instant" or "per-event"; throws std::invalid_argument listing both otherwise.
EventBatching parse_event_batching(const std::string& name);

// A completion of the instant, as pyss orders it.
struct Termination {
  std::size_t index = 0;             // in the instant's completions
  std::uint64_t start_sequence = 0;  // jobs that started earlier have smaller sequences
  bool at_planned_end = false;       // it ended at its walltime or its planned end
                                // (docs/semantics.md#predictions-correctors-and-backfill-order)
};

// One event of an instant: its kind and its index among the instant's events of that kind.
struct InstantEvent {
  enum class Kind { kCompletion, kSubmission, kNotification };
  Kind kind;
  std::size_t index;
  bool operator==(const InstantEvent& other) const {
    return kind == other.kind && index == other.index;
  }
};

// The passes of one instant under pyss's event handling, each with the events applied before
// it: the instant's submissions and notifications first, in their order, then its terminations
// in start order, one pass each; terminations at their planned end all join the first pass and
// get none of their own. No events, no pass.
std::vector<std::vector<InstantEvent>> per_event_passes(std::size_t submissions,
                                                        std::size_t notifications,
                                                        std::vector<Termination> terminations);

}  // namespace batfill::adapter
