#pragma once
// Free nodes over time as a step function, for planners that hold reservations for future
// jobs (conservative backfilling's profile, Feitelson & Weil 1998;
// docs/semantics.md#conservative-classic--feitelson--weil-1998).
//
// A job occupies a rectangle: `nodes` nodes over [start, end). Only the steps are stored,
// sorted in one vector: the searches for an earliest slot walk them from the requested time
// on, and compression runs one search per waiting job, so contiguous steps matter more than
// cheap inserts (a std::map spent most of a CTC-SP2 replay chasing pointers). Taking or giving
// back a rectangle is a binary search plus a shift of the steps after it. The profile forgets
// everything before its origin: planning never looks into the past.

#include <cstddef>
#include <utility>
#include <vector>

#include "batfill/common/time.hpp"
#include "batfill/core/job.hpp"

namespace batfill {

// How long a job holds its nodes in a plan: its planned runtime (kNever without one), but at least
// one microsecond, because even a zero-limit job holds its nodes at the instant it starts (its
// completion arrives in a later call at the same time, docs/semantics.md#zero-length-jobs).
Time occupancy(const Job& job);

class AvailabilityProfile {
 public:
  // `capacity` free nodes at every time from `origin` on.
  AvailabilityProfile(int capacity, Time origin);

  Time origin() const { return free_.front().first; }
  // Free nodes at `time` (times before the origin read as the origin).
  int free_at(Time time) const;
  // (start, free nodes until the next start), by start; the last step lasts for ever.
  using Step = std::pair<Time, int>;
  const std::vector<Step>& steps() const { return free_; }
  // The index in steps() of the step holding `time` (the first if `time` is before it).
  std::size_t step_holding(Time time) const { return step_at(time); }

  // Takes / gives back `nodes` nodes over [start, end); end may be kNever ("for ever"). The
  // part before the origin is ignored: it is history. A profile may go below zero only when
  // the caller over-commits (an overdue job, see ConservativeClassic); it never checks.
  void reserve(Time start, Time end, int nodes) { add(start, end, -nodes); }
  void release(Time start, Time end, int nodes) { add(start, end, nodes); }

  // The earliest start >= max(from, origin) at which `nodes` nodes stay free over
  // [start, start + duration), duration > 0; kNever if there is none. A slot may end exactly
  // where another rectangle begins.
  Time earliest_fit(Time from, Time duration, int nodes) const;

  // Whether `nodes` nodes stay free over [start, start + duration), duration > 0, start at or
  // after the origin; duration may be kNever ("for ever").
  bool fits(Time start, Time duration, int nodes) const;

  // Where a rectangle already in the profile at [start, start + duration) could move: the
  // earliest fit from `from` as if it were taken out, never later than `start` (where it fits).
  // Read-only, so a compression that finds no earlier slot costs only the search. Starts at or
  // after `before` are not tried: a caller that knows none of them fits passes it to stop the
  // search there.
  Time earliest_move(Time from, Time start, Time duration, int nodes, Time before = kNever) const;

  // The most nodes free at any time of [from, until), from >= origin; INT_MIN if the interval
  // is empty. Compression bounds with it which jobs can use capacity given back.
  int most_free(Time from, Time until) const;

  // Moves the origin forward to `now`, dropping the steps before it.
  void advance_to(Time now);

 private:
  void add(Time start, Time end, int delta);
  // earliest_move's search when a step lacking `nodes` begins at or after latest + duration:
  // the earliest candidate in [candidate, latest] with `nodes` free for `duration`; kNever if
  // none is.
  Time earliest_run(Time candidate, Time latest, Time duration, int nodes) const;
  std::size_t step_at(Time time) const;  // the step holding `time` (the first if before it)
  std::size_t split_at(Time time);       // makes `time` a step start; returns that step
  bool merge_with_previous(std::size_t step);

  std::vector<Step> free_;  // never empty; the first step starts at the origin
};

}  // namespace batfill
