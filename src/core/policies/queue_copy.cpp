#include "queue_copy.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace batfill {

void QueueCopy::queue(const Job& job, std::size_t position) {
  drop_started();
  const std::size_t index = first_ + position;
  if (index > entries_.size()) return;  // beyond the copy: read at the pass
  entries_.resize(index);
  entries_.push_back(entry_of(job));
  stale_from(index);
}

void QueueCopy::removed(std::size_t position) {
  drop_started();
  const std::size_t index = first_ + position;
  if (index >= entries_.size()) return;
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(index));
  stale_from(index);
}

void QueueCopy::reorder() {
  entries_.clear();
  first_ = 0;
  started_.clear();
  stale_from(0);
}

void QueueCopy::follow(QueueView queue) {
  drop_started();
  queue_ = queue;
#ifndef NDEBUG
  check_invariants();
#endif
}

void QueueCopy::read_rest() {
  stale_from(entries_.size());
  for (std::size_t position = entries_.size() - first_; position < queue_.size(); ++position) {
    const Job& job = *queue_[position];
    entries_.push_back(entry_of(job));
  }
}

// A resize request's remaining time shrinks from pass to pass
// (docs/semantics.md#resize-requests-of-running-jobs): its copy claims none, so that the walk
// always reads the request itself.
QueueCopy::Entry QueueCopy::entry_of(const Job& job) {
  return {job.nodes, job.resize_request ? 0 : planned_runtime(job)};
}

// Removes the started entries. Heads started in order only move the first entry; entries
// after a backfilled job move down by one run copy each.
void QueueCopy::drop_started() {
  // A start beyond the copy moves none of it.
  started_.erase(std::remove_if(started_.begin(), started_.end(),
                                [&](std::size_t index) { return index >= entries_.size(); }),
                 started_.end());
  if (started_.empty()) return;
  std::sort(started_.begin(), started_.end());
  std::size_t heads = 0;
  while (heads < started_.size() && started_[heads] == first_ + heads) ++heads;
  first_ += heads;
  started_.erase(started_.begin(), started_.begin() + static_cast<std::ptrdiff_t>(heads));
  if (!started_.empty()) {
    stale_from(started_.front());
    started_.push_back(entries_.size());  // the end of the last run
    std::size_t kept = started_.front();
    for (std::size_t i = 0; i + 1 < started_.size(); ++i) {
      const auto run = entries_.begin() + static_cast<std::ptrdiff_t>(started_[i] + 1);
      const auto run_end = entries_.begin() + static_cast<std::ptrdiff_t>(started_[i + 1]);
      if (run >= run_end) continue;
      std::copy(run, run_end, entries_.begin() + static_cast<std::ptrdiff_t>(kept));
      kept += static_cast<std::size_t>(run_end - run);
    }
    entries_.resize(kept);
    started_.clear();
  }
  if (2 * first_ > entries_.size()) {  // reclaim the dropped heads now and then
    entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(first_));
    first_ = 0;
    stale_from(0);
  }
}

void QueueCopy::refresh() {
  const std::size_t blocks = (entries_.size() + kBlock - 1) / kBlock;
  smallest_.resize(blocks);
  for (std::size_t block = stale_from_ / kBlock; block < blocks; ++block) {
    Entry smallest{entries_[block * kBlock].nodes, entries_[block * kBlock].runtime};
    const std::size_t end = std::min(entries_.size(), (block + 1) * kBlock);
    for (std::size_t index = block * kBlock + 1; index < end; ++index) {
      smallest.nodes = std::min(smallest.nodes, entries_[index].nodes);
      smallest.runtime = std::min(smallest.runtime, entries_[index].runtime);
    }
    smallest_[block] = smallest;
  }
  stale_from_ = entries_.size();
}

void QueueCopy::check_invariants() {
  refresh();
  for (std::size_t block = 0; block * kBlock < entries_.size(); ++block) {
    Entry smallest = entries_[block * kBlock];
    for (std::size_t index = block * kBlock;
         index < std::min(entries_.size(), (block + 1) * kBlock); ++index) {
      smallest.nodes = std::min(smallest.nodes, entries_[index].nodes);
      smallest.runtime = std::min(smallest.runtime, entries_[index].runtime);
    }
    if (smallest_[block].nodes != smallest.nodes || smallest_[block].runtime != smallest.runtime) {
      throw std::logic_error("queue copy: block " + std::to_string(block) +
                             " does not hold its smallest entry");
    }
  }
}

}  // namespace batfill
