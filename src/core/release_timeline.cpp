#include "batfill/core/release_timeline.hpp"

#include <algorithm>

namespace batfill {

ReleaseTimeline::ReleaseTimeline(const SchedulingView& view)
    : now_(view.now), free_nodes_(view.free_nodes), running_(view.releases) {}

void ReleaseTimeline::start(const Job& job) {
  free_nodes_ -= job.nodes;
  const std::pair<Time, int> release{planned_end(job, now_), job.nodes};
  started_.insert(std::upper_bound(started_.begin(), started_.end(), release,
                                   [](const auto& a, const auto& b) { return a.first < b.first; }),
                  release);
}

Time ReleaseTimeline::earliest_time_with(int nodes) const {
  if (nodes <= free_nodes_) return now_;
  const int missing = nodes - free_nodes_;
  int released = 0;
  auto running = running_->begin();
  auto started = started_.begin();
  // Merge the two time-sorted lists; only the time at which enough nodes are back matters, so
  // ties between releases need no order.
  while (running != running_->end() || started != started_.end()) {
    Time time;
    if (started == started_.end() ||
        (running != running_->end() && running->first <= started->first)) {
      time = running->first;
      released += running->second;
      ++running;
    } else {
      time = started->first;
      released += started->second;
      ++started;
    }
    if (time == kNever) return kNever;
    if (released >= missing) return std::max(time, now_);
  }
  return kNever;
}

int ReleaseTimeline::free_nodes_at(Time time) const {
  int free = free_nodes_;
  for (auto release = running_->begin(); release != running_->end() && release->first <= time;
       ++release) {
    free += release->second;
  }
  for (const auto& [end, nodes] : started_) {
    if (end > time) break;
    free += nodes;
  }
  return free;
}

}  // namespace batfill
