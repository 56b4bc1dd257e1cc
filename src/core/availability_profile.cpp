#include "batfill/core/availability_profile.hpp"

#include <algorithm>
#include <climits>

namespace batfill {

Time occupancy(const Job& job) {
  const Time runtime = planned_runtime(job);
  return runtime != kNoTimeLimit ? std::max<Time>(runtime, 1) : kNever;
}

AvailabilityProfile::AvailabilityProfile(int capacity, Time origin) {
  free_.emplace_back(origin, capacity);
}

std::size_t AvailabilityProfile::step_at(Time time) const {
  // A binary search without branches on the data (the compiler picks with a conditional move):
  // compression asks once per waiting job, at times no branch predictor could guess.
  const Step* first = free_.data();
  for (std::size_t count = free_.size(); count > 1;) {
    const std::size_t half = count / 2;
    first = first[half].first <= time ? first + half : first;
    count -= half;
  }
  return static_cast<std::size_t>(first - free_.data());
}

int AvailabilityProfile::free_at(Time time) const { return free_[step_at(time)].second; }

std::size_t AvailabilityProfile::split_at(Time time) {
  const std::size_t step = step_at(time);
  if (free_[step].first == time) return step;
  free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(step) + 1, {time, free_[step].second});
  return step + 1;
}

bool AvailabilityProfile::merge_with_previous(std::size_t step) {
  if (step == 0 || step >= free_.size() || free_[step - 1].second != free_[step].second) {
    return false;
  }
  free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(step));
  return true;
}

void AvailabilityProfile::add(Time start, Time end, int delta) {
  start = std::max(start, origin());
  if (end <= start || delta == 0) return;
  const std::size_t first = split_at(start);
  // The walk that changes the steps also finds the end: one binary search, not two.
  std::size_t last = first;
  for (; last < free_.size() && free_[last].first < end; ++last) free_[last].second += delta;
  if (end != kNever && (last == free_.size() || free_[last].first != end)) {
    // The last step changed runs past `end`: its part from `end` on keeps the old count.
    free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(last),
                 {end, free_[last - 1].second - delta});
  }
  // Equal neighbours are merged so the profile stays as small as the rectangles it holds.
  merge_with_previous(last);
  merge_with_previous(first);
}

Time AvailabilityProfile::earliest_fit(Time from, Time duration, int nodes) const {
  Time candidate = std::max(from, origin());
  for (std::size_t step = step_at(candidate); step < free_.size(); ++step) {
    // Every step from `candidate` up to this one had enough nodes.
    if (free_[step].first >= add_saturating(candidate, duration)) return candidate;
    if (free_[step].second >= nodes) continue;
    if (step + 1 == free_.size()) return kNever;
    candidate = free_[step + 1].first;
  }
  return candidate;  // the last step lasts for ever and has enough nodes
}

bool AvailabilityProfile::fits(Time start, Time duration, int nodes) const {
  const Time end = add_saturating(start, duration);
  for (std::size_t step = step_at(start); step < free_.size() && free_[step].first < end; ++step) {
    if (free_[step].second < nodes) return false;
  }
  return true;
}

Time AvailabilityProfile::earliest_move(Time from, Time start, Time duration, int nodes,
                                        Time before) const {
  // The rectangle stays in the profile. A candidate c < start overlaps it only on
  // [start, c + duration), where the job finds its own nodes again: there it needs only a plan
  // that is not over-committed (free >= 0); before `start` it needs `nodes` free. A step that
  // begins before `start` always meets the window before `start`, so a step's need depends only
  // on where it begins, and the rectangle's own boundaries (perhaps merged away) do not matter.
  Time candidate = std::max(from, origin());
  const Time last = std::min(start, before);  // candidates are tried before it
  if (candidate >= last) return start;
  // Most rectangles sit right after a step without their nodes: that is why they start there.
  // A window beginning before `start` and reaching into that step is then blocked, so only the
  // windows that end by the step's beginning remain, entirely before `start`. For long jobs
  // there are often none: a third of CTC-SP2's compression searches end here.
  const std::size_t before_start_step = step_at(start - 1);
  const Step& before_start = free_[before_start_step];
  if (before_start.second < nodes) {
    if (before_start.first - candidate < duration) return start;
    const Time found =
        earliest_run(candidate, std::min(before_start.first - duration, last - 1), duration, nodes);
    return found == kNever ? start : found;
  }
  // The steps beginning before `start` need `nodes`, the later ones 0: told by their index.
  const std::size_t from_start = before_start_step + 1;
  std::size_t step = candidate == origin() ? 0 : step_at(candidate);  // compression asks from now
  while (candidate < last) {
    const Time window_end = add_saturating(candidate, duration);
    std::size_t blocked = step;
    while (blocked < free_.size() && free_[blocked].first < window_end &&
           free_[blocked].second >= (blocked < from_start ? nodes : 0)) {
      ++blocked;
    }
    if (blocked == free_.size() || free_[blocked].first >= window_end) return candidate;
    // Every later candidate starts after the blocking step begins.
    if (free_[blocked].first >= start || blocked + 1 == free_.size()) return start;
    step = blocked + 1;
    candidate = free_[step].first;
  }
  return start;
}

Time AvailabilityProfile::earliest_run(Time candidate, Time latest, Time duration,
                                       int nodes) const {
  // The step that blocks every window ending after latest + duration ends each run in time, so
  // the walk needs no bound checks.
  for (std::size_t step = candidate == origin() ? 0 : step_at(candidate);; ++step) {
    if (free_[step].first - candidate >= duration) return candidate;
    if (free_[step].second < nodes) {
      candidate = free_[step + 1].first;
      if (candidate > latest) return kNever;
    }
  }
}

int AvailabilityProfile::most_free(Time from, Time until) const {
  int most = INT_MIN;
  if (from >= until) return most;
  for (std::size_t step = step_at(from); step < free_.size() && free_[step].first < until; ++step) {
    most = std::max(most, free_[step].second);
  }
  return most;
}

void AvailabilityProfile::advance_to(Time now) {
  if (now <= origin()) return;
  const std::size_t step = step_at(now);
  free_.erase(free_.begin(), free_.begin() + static_cast<std::ptrdiff_t>(step));
  free_.front().first = now;
}

}  // namespace batfill
