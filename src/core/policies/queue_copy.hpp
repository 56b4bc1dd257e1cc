#pragma once
// The node count and planned runtime of each waiting job, by position in the wait queue, kept
// from pass to pass in one contiguous vector, with the smallest of each per block of positions.
// Under a long queue a policy's walk behind the head is most of its time, and most jobs there
// can neither start nor matter: the walk finds the next job that may, skipping whole blocks
// without one, and never reads the jobs it passes (a job is a cache miss; its copy is not).
// Used by the spec's EASY and CONSERVATIVE and by classic EASY.
//
// The copy follows the Scheduler's events (a policy forwards them): a job queued at the end is
// copied at once; one queued before the end cuts the copy there (the jobs behind it moved
// back), and the pass reads the rest from the queue again when it gets there. A pass's starts
// leave the copy before the next event or pass, all at once.
//
// Invariants (check_invariants): once brought up to date, each block's smallest entry holds
// the fewest nodes and the shortest runtime of the entries in its positions; a change marks
// the blocks stale from the first entry it touched, and the next search brings them up to date.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "batfill/core/policy.hpp"

namespace batfill {

class QueueCopy {
 public:
  struct Entry {
    int nodes;
    Time runtime;  // planned
  };

  // The Scheduler's events, and the start of a pass over `queue`. `position` of a started job:
  // in the queue of the pass that started it; of a removed one: in the queue as it was.
  void queue(const Job& job, std::size_t position);
  void removed(std::size_t position);
  void reorder();  // a queue sorted again is read again at the pass
  void started(std::size_t position) { started_.push_back(first_ + position); }
  void follow(QueueView queue);

  // The first position from `position` on whose copy `may_matter` accepts (the pass's queue
  // size if none). `may_matter` must accept an entry whenever it accepts one with more nodes or
  // a longer runtime: then a block whose smallest entry it refuses holds none it accepts.
  template <class MayMatter>
  std::size_t next(std::size_t position, MayMatter may_matter);

  // Throws std::logic_error unless the invariants above hold.
  void check_invariants();

 private:
  static constexpr std::size_t kBlock = 32;  // positions per block

  void read_rest();
  void drop_started();
  void stale_from(std::size_t index) { stale_from_ = std::min(stale_from_, index); }
  void refresh();
  static Entry entry_of(const Job& job);

  QueueView queue_;                   // of the current pass
  std::vector<Entry> entries_;        // from first_ on, by position in the queue
  std::size_t first_ = 0;             // entries before it belong to started heads
  std::vector<std::size_t> started_;  // indices in entries_
  std::vector<Entry> smallest_;       // per block of kBlock entries of entries_
  std::size_t stale_from_ = 0;        // entries from here on may not be in smallest_
};

// A policy whose passes walk a QueueCopy: the Scheduler's queue events reach the copy.
class QueueCopyPolicy : public Policy {
 public:
  void on_job_queued(const Job& job, std::size_t position) override {
    queue_copy_.queue(job, position);
  }
  void on_queue_reordered(const std::vector<std::size_t>& /*previous_positions*/) override {
    queue_copy_.reorder();
  }
  void on_job_started(const Job& /*job*/, std::size_t position) override {
    queue_copy_.started(position);
  }
  void on_job_removed(const Job& /*job*/, std::size_t position) override {
    queue_copy_.removed(position);
  }

 protected:
  QueueCopy queue_copy_;
};

template <class MayMatter>
std::size_t QueueCopy::next(std::size_t position, MayMatter may_matter) {
  if (entries_.size() - first_ < queue_.size()) read_rest();
  refresh();
  const std::size_t end = first_ + queue_.size();
  for (std::size_t index = first_ + position; index < end;) {
    if (index % kBlock == 0 && !may_matter(smallest_[index / kBlock])) {
      index += kBlock;
      continue;
    }
    if (may_matter(entries_[index])) return index - first_;
    ++index;
  }
  return queue_.size();
}

}  // namespace batfill
