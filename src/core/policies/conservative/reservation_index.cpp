#include "reservation_index.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace batfill {

namespace {

// Free slots of a row, by rank: which slot is the n-th free one (a Fenwick tree of counts).
class FreeSlots {
 public:
  explicit FreeSlots(std::size_t size) : counts_(size + 1, 0) {
    for (std::size_t slot = 1; slot <= size; ++slot) {
      counts_[slot] += 1;
      const std::size_t parent = slot + (slot & (~slot + 1));
      if (parent <= size) counts_[parent] += counts_[slot];
    }
  }
  // Takes the free slot with `rank` free slots before it; returns it.
  std::size_t take(std::size_t rank) {
    std::size_t slot = 0;
    std::size_t step = 1;
    while (2 * step < counts_.size()) step *= 2;
    for (; step > 0; step /= 2) {
      if (slot + step < counts_.size() && counts_[slot + step] <= rank) {
        slot += step;
        rank -= counts_[slot];
      }
    }
    for (std::size_t node = slot + 1; node < counts_.size(); node += node & (~node + 1)) {
      --counts_[node];
    }
    return slot;
  }

 private:
  std::vector<std::size_t> counts_;
};

}  // namespace

void ReservationIndex::queue(const Job& job, std::size_t position) {
  if (insertions_.empty() && position + started_entries_ == entries_.size()) {
    drop_started_if_sparse();
    entries_.emplace_back(&job);
    update(entries_.size() - 1);
    return;
  }
  insertions_.push_back({&job, position});
}

// The last insertion lands at its position; going back, each lands on the free slot of its
// rank among those the later ones left, and the entries already there fill the rest in order.
void ReservationIndex::settle() {
  if (insertions_.empty()) return;
  drop_started_entries();
  const std::size_t total = entries_.size() + insertions_.size();
  FreeSlots free_slots(total);
  std::vector<const Job*> inserted(total, nullptr);
  for (auto it = insertions_.rbegin(); it != insertions_.rend(); ++it) {
    inserted[free_slots.take(it->position)] = it->job;
  }
  std::vector<WaitingEntry> settled;
  settled.reserve(total);
  auto kept = entries_.begin();
  for (const Job* job : inserted) {
    if (job != nullptr) {
      settled.emplace_back(job);
    } else {
      settled.push_back(*kept++);
    }
  }
  entries_ = std::move(settled);
  insertions_.clear();
  rebuild();
}

std::size_t ReservationIndex::entry_at(std::size_t position) const {
  for (std::size_t entry = 0; entry < entries_.size(); ++entry) {
    if (entries_[entry].job == nullptr) continue;
    if (position-- == 0) return entry;
  }
  return kNone;
}

void ReservationIndex::reorder(const std::vector<std::size_t>& previous_positions) {
  settle();
  drop_started();
  std::vector<WaitingEntry> reordered;
  reordered.reserve(entries_.size());
  for (const std::size_t previous : previous_positions) reordered.push_back(entries_[previous]);
  entries_ = std::move(reordered);
  rebuild();
}

void ReservationIndex::drop_started_if_sparse() {
  if (2 * started_entries_ > entries_.size()) drop_started();
}

void ReservationIndex::drop_started() {
  if (started_entries_ == 0) return;
  drop_started_entries();
  rebuild();
}

void ReservationIndex::drop_started_entries() {
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                [](const WaitingEntry& entry) { return entry.job == nullptr; }),
                 entries_.end());
  started_entries_ = 0;
}

void ReservationIndex::plan(std::size_t entry, const Reservation& slot, bool backfills) {
  WaitingEntry& waiting = entries_[entry];
  waiting.backfills = backfills;
  waiting.slot = slot;
  waiting.planned = true;
  update(entry);
}

void ReservationIndex::move(std::size_t entry, const Reservation& slot) {
  entries_[entry].slot = slot;
  update(entry);
}

void ReservationIndex::unplan(std::size_t entry) {
  entries_[entry].planned = false;
  update(entry);
}

void ReservationIndex::unplan_all() {
  for (WaitingEntry& entry : entries_) entry.planned = false;
  rebuild();
}

void ReservationIndex::set_reserving(std::size_t entry, bool reserving) {
  if (entries_[entry].reserving == reserving) return;
  entries_[entry].reserving = reserving;
  update(entry);
}

void ReservationIndex::mark_started(std::size_t entry) {
  entries_[entry].job = nullptr;
  entries_[entry].planned = false;
  ++started_entries_;
  update(entry);
}

// Compression visits the planned entries whose reservation can use the free nodes it found:
// one that moves from now only needs its own nodes free; the others depend on the
// reservations ahead, so they are always visited.
int ReservationIndex::movable_key(const WaitingEntry& entry) {
  if (entry.job == nullptr || !entry.planned) return INT_MAX;
  return entry.moves_from_now() ? entry.job->nodes : INT_MIN;
}

// A walk visits a planned entry once its slot has come, and an entry to place at once.
Time ReservationIndex::to_visit_key(const WaitingEntry& entry) {
  if (entry.job == nullptr) return kNever;
  if (entry.planned) return entry.slot.start;
  return entry.reserving ? kBeforeAll : kNever;
}

Time ReservationIndex::start_key(const WaitingEntry& entry) {
  return entry.job != nullptr && entry.planned ? entry.slot.start : kBeforeAll;
}

void ReservationIndex::update(std::size_t entry) {
  movable_.set(entry, movable_key(entries_[entry]));
  to_visit_.set(entry, to_visit_key(entries_[entry]));
  starts_.set(entry, start_key(entries_[entry]));
}

void ReservationIndex::rebuild() {
  movable_.clear();
  to_visit_.clear();
  starts_.clear();
  for (std::size_t entry = 0; entry < entries_.size(); ++entry) update(entry);
}

void ReservationIndex::check_invariants() const {
  auto fail = [](const std::string& what, std::size_t entry) {
    throw std::logic_error("reservation index: " + what + " at entry " + std::to_string(entry));
  };
  if (!insertions_.empty()) fail("insertions not settled", entries_.size());
  std::size_t started = 0;
  for (std::size_t entry = 0; entry < entries_.size(); ++entry) {
    const WaitingEntry& waiting = entries_[entry];
    if (waiting.job == nullptr) {
      ++started;
      if (waiting.planned) fail("a started job still planned", entry);
    }
    if (movable_.at(entry) != movable_key(waiting)) fail("a stale compression key", entry);
    if (to_visit_.at(entry) != to_visit_key(waiting)) fail("a stale walk key", entry);
    if (starts_.at(entry) != start_key(waiting)) fail("a stale start", entry);
  }
  if (started != started_entries_) fail("a wrong count of started entries", entries_.size());
  if (!movable_.well_formed() || !to_visit_.well_formed() || !starts_.well_formed()) {
    fail("an inner node that is not the best of its children", 0);
  }
}

}  // namespace batfill
