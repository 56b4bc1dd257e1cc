#pragma once
// Classic conservative backfilling's waiting jobs, in queue order, with their reservations and
// the index that lets a pass visit only the entries that matter
// (docs/semantics.md#conservative-classic--feitelson--weil-1998): the algorithm is in
// src/core/policies/conservative_classic.cpp, this is its bookkeeping.
//
// Each entry is changed only through the index, which keeps three position trees in step with
// it; check_invariants() states what they hold.

#include <climits>
#include <cstddef>
#include <functional>
#include <limits>
#include <vector>

#include "batfill/common/time.hpp"
#include "batfill/core/job.hpp"
#include "freed_capacity_log.hpp"
#include "position_tree.hpp"

namespace batfill {

constexpr Time kBeforeAll = std::numeric_limits<Time>::min();

struct Reservation {
  Time start = 0;
  Time end = 0;
  FreedCapacityLog::Version placed_at = 0;  // log version when this slot was chosen
};

struct WaitingEntry {
  explicit WaitingEntry(const Job* queued) : job(queued) {}
  const Job* job;          // null once started
  bool backfills = false;  // may be planned before the reservations ahead of it
                           // (docs/semantics.md#queues---queues)
  Reservation slot;
  bool planned = false;   // holds a slot in the profile (kNever: its start is unknown)
  bool reserving = true;  // its queue grants it a reservation in this pass
  bool reserved = false;  // has had a known slot, whose first start was reported

  // Its slot is the earliest fit from now whatever is ahead of it: it may backfill and its
  // start is known. Compression then moves it from now, and only into capacity given back.
  bool moves_from_now() const { return backfills && slot.start != kNever; }
};

class ReservationIndex {
 public:
  static constexpr std::size_t kNone = PositionTree<int, std::less<int>>::kNone;

  // The Scheduler's events. `job` joined the wait queue at `position`: it gets an entry,
  // unplanned. One at the end is appended at once; one before it waits for settle(), which
  // puts all such together: one at a time, each would move every entry after it, and an order
  // by id puts most submissions of a long queue in the middle.
  void queue(const Job& job, std::size_t position);
  // The wait queue was sorted again (Policy::on_queue_reordered).
  void reorder(const std::vector<std::size_t>& previous_positions);
  // Applies the insertions still waiting; the entries then follow the queue. Call before
  // reading them.
  void settle();
  // The entry of the waiting job at `position` of the queue (settled).
  std::size_t entry_at(std::size_t position) const;
  // The entries of started jobs stay, empty, so that the others keep their places during a
  // pass; they are dropped once they are half of the entries.
  void drop_started_if_sparse();

  // Entries in queue order, those of started jobs included.
  std::size_t size() const { return entries_.size(); }
  const WaitingEntry& operator[](std::size_t entry) const { return entries_[entry]; }

  // The changes of an entry.
  void plan(std::size_t entry, const Reservation& slot, bool backfills);
  void move(std::size_t entry, const Reservation& slot);  // a planned entry's new slot
  void unplan(std::size_t entry);
  void unplan_all();
  void set_reserving(std::size_t entry, bool reserving);
  void mark_reported(std::size_t entry) { entries_[entry].reserved = true; }
  void mark_started(std::size_t entry);

  // The first entry from `entry` on that a walk at `now` visits: a planned job whose slot has
  // come, or a reserving one still to be placed.
  std::size_t first_to_visit(std::size_t entry, Time now) const {
    return to_visit_.first_from(entry, now);
  }
  // The first entry from `entry` on whose reservation may move where `most_free` nodes are
  // free: one that moves from now needing no more nodes, or any other planned one.
  std::size_t first_movable(std::size_t entry, int most_free) const {
    return movable_.first_from(entry, most_free);
  }
  // The latest start of the known slots before `entry` (kBeforeAll if none is planned; kNever
  // if one has no known start).
  Time latest_start_before(std::size_t entry) const { return starts_.best_before(entry); }

  // Throws std::logic_error unless the index is settled and every tree holds, at every entry,
  // the key the entry gives it.
  void check_invariants() const;

 private:
  // The keys of an entry in each tree.
  static int movable_key(const WaitingEntry& entry);
  static Time to_visit_key(const WaitingEntry& entry);
  static Time start_key(const WaitingEntry& entry);
  void update(std::size_t entry);
  void drop_started();
  void drop_started_entries();  // without rebuilding the trees
  void rebuild();

  // Walked in place rather than looked up (a hash map by address cost as much as the searches).
  std::vector<WaitingEntry> entries_;
  std::size_t started_entries_ = 0;  // empty entries
  struct Insertion {
    const Job* job;
    std::size_t position;  // in the queue as it was when the job joined it
  };
  std::vector<Insertion> insertions_;  // not yet settled, in event order
  // Per entry: the nodes of a job whose reservation may move only where that many are free
  // (INT_MIN: always visited, INT_MAX: no reservation); the slot's start for a walk (kBeforeAll:
  // to be placed, kNever: nothing to do); the slot's start for the jobs behind (kBeforeAll:
  // none).
  PositionTree<int, std::less<int>> movable_{INT_MAX};
  PositionTree<Time, std::less<Time>> to_visit_{kNever};
  PositionTree<Time, std::greater<Time>> starts_{kBeforeAll};
};

}  // namespace batfill
