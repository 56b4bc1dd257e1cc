#pragma once
// The capacity classic conservative backfilling gives back in its plan, as compression reads it
// (docs/semantics.md#conservative-classic--feitelson--weil-1998): from what time since each slot
// was chosen (a FreedCapacityLog), up to where since the last compression began, and whether a
// compression is due. A reservation is the earliest fit as of its placing or the last compression:
// only capacity given back since can let it move earlier (one planned from now, only to a start
// before that capacity's end).
//
// The log stays its own type: it answers one question per reservation and knows nothing of
// compressions. This is the cycle around it: completions held until the next instant, slots
// given back, a compression begun.
//
// Invariants: the log's (it checks them itself); no capacity is recorded as freed before the
// last instant, since a plan never looks before it and the log merges its past into it (both
// checked by check_invariants); and the reach is kBeforeAll exactly when nothing was given back
// since the last compression began, which give_back keeps by construction (it is the only writer
// of the log and the reach, and no end is kBeforeAll).

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "batfill/common/time.hpp"
#include "freed_capacity_log.hpp"
#include "reservation_index.hpp"

namespace batfill {

// Capacity given back over [from, until) of the plan.
struct FreedCapacity {
  Time from = 0;
  Time until = 0;
  bool empty() const { return from == until; }
};

class CompressionWindow {
 public:
  using Version = FreedCapacityLog::Version;

  // Stored with each slot when it is chosen.
  Version version() const { return log_.version(); }
  // The earliest time from which capacity was given back after `version` (the last instant for
  // anything earlier; kNever if none was).
  Time earliest_since(Version version) const { return log_.earliest_since(version); }

  // A running job ended: its rectangle was released up to its planned `end`. What lies after the
  // next instant is capacity given back (an early completion); what lies before it, the plan no
  // longer counts. A compression is due either way: the last one may have moved jobs.
  void complete(Time end) {
    completed_until_ = std::max(completed_until_, end);
    due_ = true;
  }

  // The plan is brought to `now`: what completions since the last instant released from `now` on
  // is given back.
  void advance_to(Time now) {
    log_.forget_before(now);
    if (completed_until_ > now) give_back({now, completed_until_});
    completed_until_ = kBeforeAll;
  }

  // A waiting job's slot was taken out of the plan at `now`: what of it lies from `now` on is
  // given back, and a compression is due. A slot with no known start holds nothing to give.
  void release(const Reservation& slot, Time now) {
    if (slot.start == kNever) return;
    give_back({std::max(slot.start, now), slot.end});
    due_ = true;
  }

  // Capacity came back in the plan (a compression moved a reservation earlier).
  void give_back(FreedCapacity freed) {
    log_.record(freed.from);
    reach_ = std::max(reach_, freed.until);
  }

  bool compression_due() const { return due_; }

  // Begins a compression: returns the latest end of the capacity given back since the last one
  // began, kBeforeAll if none was (then no reservation can move).
  Time begin_compression() {
    due_ = false;
    return std::exchange(reach_, kBeforeAll);
  }

  // Throws std::logic_error unless the invariants above hold at the instant `now` of the last
  // advance_to. The earliest record is the one answered for version 0, which precedes all.
  void check_invariants(Time now) const {
    log_.check_invariants();
    if (log_.earliest_since(0) < now) throw std::logic_error("capacity freed before the instant");
  }

 private:
  FreedCapacityLog log_;
  Time completed_until_ = kBeforeAll;  // the latest end released by completions since the instant
  Time reach_ = kBeforeAll;            // the latest end given back since the compression began
  bool due_ = false;
};

}  // namespace batfill
