#pragma once
// Free nodes over time as a step function, for planners that hold reservations for future
// jobs (conservative backfilling's profile, Feitelson & Weil 1998; notes §4).
//
// A job occupies a rectangle: `nodes` nodes over [start, end). Only breakpoints are stored,
// so taking or giving back a rectangle costs O(log n + k) for the k breakpoints it spans, and
// the search for the earliest slot walks the steps from the requested time onwards. The
// profile forgets everything before its origin: planning never looks into the past.

#include <cstddef>
#include <map>

#include "batfill/core/job.hpp"
#include "batfill/core/time.hpp"

namespace batfill {

// How long a job holds its nodes in a plan: its time limit (kNever without one), but at least
// one microsecond, because even a zero-limit job holds its nodes at the instant it starts (its
// completion arrives in a later call at the same time, notes §1).
Time occupancy(const Job& job);

class AvailabilityProfile {
 public:
  // `capacity` free nodes at every time from `origin` on.
  AvailabilityProfile(int capacity, Time origin);

  Time origin() const { return free_.begin()->first; }
  // Free nodes at `time` (times before the origin read as the origin).
  int free_at(Time time) const;
  std::size_t step_count() const { return free_.size(); }

  // Takes / gives back `nodes` nodes over [start, end); end may be kNever ("for ever"). The
  // part before the origin is ignored: it is history. A profile may go below zero only when
  // the caller over-commits (an overdue job, see ConservativeClassic); it never checks.
  void reserve(Time start, Time end, int nodes) { add(start, end, -nodes); }
  void release(Time start, Time end, int nodes) { add(start, end, nodes); }

  // The earliest start >= max(from, origin) at which `nodes` nodes stay free over
  // [start, start + duration), duration > 0; kNever if no such start exists. A slot may end exactly where another rectangle begins. The search
  // stops at `not_after` and returns it when no earlier start fits (callers pass a start
  // known to fit, which keeps compression from walking the whole profile).
  Time earliest_fit(Time from, Time duration, int nodes, Time not_after = kNever) const;

  // Moves the origin forward to `now`, dropping the steps before it.
  void advance_to(Time now);

 private:
  void add(Time start, Time end, int delta);
  std::map<Time, int>::iterator split_at(Time time);
  void merge_with_previous(std::map<Time, int>::iterator step);

  // free_[t] = free nodes from t up to the next key; the first key is the origin and the last
  // step lasts for ever.
  std::map<Time, int> free_;
};

}  // namespace batfill
