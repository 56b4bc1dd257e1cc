#include "batfill/core/power_states.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "batfill/core/machine_pool.hpp"

namespace batfill {

std::string to_string(PowerTarget target) {
  return target == PowerTarget::kSleep ? "sleep" : "compute";
}

PowerStates::PowerStates(int machine_count, PowerOptions options)
    : options_(options),
      state_(static_cast<std::size_t>(std::max(machine_count, 0)), State::kAwake),
      since_(state_.size(), 0) {
  counts_[static_cast<int>(State::kAwake)] = static_cast<int>(state_.size());
}

void PowerStates::begin(Time now) {
  std::fill(since_.begin(), since_.end(), now);
  begun_ = true;
}

void PowerStates::set(int id, State state, Time now) {
  const auto index = static_cast<std::size_t>(id);
  --counts_[static_cast<int>(state_[index])];
  ++counts_[static_cast<int>(state)];
  state_[index] = state;
  since_[index] = now;
}

void PowerStates::became_idle(const MachineSet& machines, Time now) {
  for_each_id(machines, [&](int id) {
    if (id >= 0 && static_cast<std::size_t>(id) < state_.size()) since_[static_cast<std::size_t>(id)] = now;
  });
}

MachineSet PowerStates::reached(const MachineSet& machines, PowerTarget target, Time now) {
  const State from = target == PowerTarget::kSleep ? State::kSwitchingOff : State::kSwitchingOn;
  const State to = target == PowerTarget::kSleep ? State::kAsleep : State::kAwake;
  for_each_id(machines, [&](int id) {
    if (id < 0 || static_cast<std::size_t>(id) >= state_.size() ||
        state_[static_cast<std::size_t>(id)] != from) {
      throw std::invalid_argument("machine " + std::to_string(id) + " reported in the " +
                                  to_string(target) +
                                  " state, but the scheduler did not switch it there");
    }
  });
  for_each_id(machines, [&](int id) { set(id, to, now); });
  return to == State::kAwake ? machines : MachineSet{};
}

std::vector<PlannedReleases::iterator> PowerStates::plan(PlannedReleases& releases,
                                                          Time now) const {
  std::map<Time, int> back;
  if (count(State::kAwake) != static_cast<int>(state_.size())) {
    for (std::size_t id = 0; id < state_.size(); ++id) {
      switch (state_[id]) {
        case State::kAwake:
          break;
        case State::kAsleep:
          ++back[now + options_.switch_on];
          break;
        case State::kSwitchingOn:
          ++back[std::max(now, since_[id] + options_.switch_on)];
          break;
        case State::kSwitchingOff:
          ++back[std::max(now, since_[id] + options_.switch_off) + options_.switch_on];
          break;
      }
    }
  }
  std::vector<PlannedReleases::iterator> added;
  added.reserve(back.size());
  for (const auto& [time, machines] : back) added.push_back(releases.emplace(time, machines));
  return added;
}

// The lowest (or highest) `count` machines in state `from`, switched to `to` at `now`.
MachineSet PowerStates::take(State from, State to, int count, bool lowest_first, Time now) {
  MachineSet taken;
  const int size = static_cast<int>(state_.size());
  for (int i = 0; i < size && count > 0; ++i) {
    const int id = lowest_first ? i : size - 1 - i;
    if (state_[static_cast<std::size_t>(id)] != from) continue;
    set(id, to, now);
    taken.insert(id);
    --count;
  }
  return taken;
}

// The highest-numbered awake idle machines idle for at least off_after, at most `count`.
MachineSet PowerStates::switch_off_idle(Time now, int count, const MachinePool& pool) {
  MachineSet taken;
  for (int id = static_cast<int>(state_.size()) - 1; id >= 0 && count > 0; --id) {
    const auto index = static_cast<std::size_t>(id);
    if (state_[index] != State::kAwake || !pool.is_free(id)) continue;
    if (now - since_[index] < options_.off_after) continue;
    set(id, State::kSwitchingOff, now);
    taken.insert(id);
    --count;
  }
  return taken;
}

std::vector<PowerSwitch> PowerStates::decide(Time now, long long demand, const MachinePool& pool) {
  demand = std::min<long long>(demand, static_cast<long long>(state_.size()));
  const long long ready = pool.free_count() + count(State::kSwitchingOn);
  std::vector<PowerSwitch> switches;
  if (demand > ready) {
    const int wake = static_cast<int>(std::min<long long>(count(State::kAsleep), demand - ready));
    if (wake > 0) {
      switches.push_back({take(State::kAsleep, State::kSwitchingOn, wake, true, now),
                          PowerTarget::kCompute});
    }
    return switches;
  }
  const long long room = std::min<long long>(ready - demand, count(State::kAwake) - options_.keep_awake);
  if (room > 0) {
    MachineSet off = switch_off_idle(now, static_cast<int>(room), pool);
    if (!off.empty()) switches.push_back({std::move(off), PowerTarget::kSleep});
  }
  return switches;
}

Time PowerStates::next_switch_off(Time now, const MachinePool& pool) const {
  Time next = kNever;
  if (count(State::kAwake) <= options_.keep_awake) return next;
  for (std::size_t id = 0; id < state_.size(); ++id) {
    if (state_[id] != State::kAwake || !pool.is_free(static_cast<int>(id))) continue;
    const Time due = since_[id] + options_.off_after;
    if (due > now) next = std::min(next, due);
  }
  return next;
}

}  // namespace batfill
