#include "batfill/core/availability_profile.hpp"

#include <algorithm>
#include <iterator>

namespace batfill {

Time occupancy(const Job& job) {
  return job.has_time_limit() ? std::max<Time>(job.time_limit, 1) : kNever;
}

AvailabilityProfile::AvailabilityProfile(int capacity, Time origin) { free_.emplace(origin, capacity); }

int AvailabilityProfile::free_at(Time time) const {
  auto step = free_.upper_bound(time);
  return step == free_.begin() ? step->second : std::prev(step)->second;
}

std::map<Time, int>::iterator AvailabilityProfile::split_at(Time time) {
  auto next = free_.upper_bound(time);
  auto step = std::prev(next);
  if (step->first == time) return step;
  return free_.emplace_hint(next, time, step->second);
}

void AvailabilityProfile::merge_with_previous(std::map<Time, int>::iterator step) {
  if (step == free_.end() || step == free_.begin()) return;
  if (std::prev(step)->second == step->second) free_.erase(step);
}

void AvailabilityProfile::add(Time start, Time end, int delta) {
  start = std::max(start, origin());
  if (end <= start || delta == 0) return;
  const auto first = split_at(start);
  const auto last = end == kNever ? free_.end() : split_at(end);
  for (auto step = first; step != last; ++step) step->second += delta;
  // Equal neighbours are merged so the profile stays as small as the rectangles it holds.
  merge_with_previous(last);
  merge_with_previous(first);
}

Time AvailabilityProfile::earliest_fit(Time from, Time duration, int nodes, Time not_after) const {
  Time candidate = std::max(from, origin());
  auto step = std::prev(free_.upper_bound(candidate));
  for (; step != free_.end(); ++step) {
    // Every step from `candidate` up to this one had enough nodes.
    if (step->first >= add_saturating(candidate, duration)) return candidate;
    if (step->second >= nodes) continue;
    const auto next = std::next(step);
    if (next == free_.end()) return not_after;  // kNever unless the caller knows a fit
    candidate = next->first;
    if (candidate > not_after) return not_after;
  }
  return candidate;  // the last step lasts for ever and has enough nodes
}

void AvailabilityProfile::advance_to(Time now) {
  if (now <= origin()) return;
  const auto after = free_.upper_bound(now);
  const int free_now = std::prev(after)->second;
  free_.erase(free_.begin(), after);
  free_.emplace_hint(after, now, free_now);
  merge_with_previous(free_.upper_bound(now));
}

}  // namespace batfill
