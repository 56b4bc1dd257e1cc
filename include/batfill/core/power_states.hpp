#pragma once
// Idle power-off (docs/semantics.md#idle-power-off-power_off_after): each machine's power state,
// where the plan counts the machines that are not awake, and which machines to switch after a
// pass. Machine ids only; the Scheduler keeps the MachinePool's free machines in step.

#include <cstdint>
#include <string>
#include <vector>

#include "batfill/common/machine_set.hpp"
#include "batfill/common/time.hpp"
#include "batfill/core/policy.hpp"

namespace batfill {

class MachinePool;

struct PowerOptions {
  Time off_after = kNever;  // idle time before a switch off; kNever: never (the default)
  Time switch_on = 0;       // how long a switch on takes, as the plan counts it
  Time switch_off = 0;
  int keep_awake = 0;  // machines never switched off, busy or idle
  // The platform's pstates of the two states, which the core never reads: the adapter names them
  // in its switch decisions and recognises them in the platform's reports.
  int sleep_pstate = -1;  // -1: not given
  int compute_pstate = 0;
  // Ask the platform for its consumed energy whenever jobs are submitted, and check that it never
  // decreases (batsched's energy_watcher); the adapter's, not the core's.
  bool watch_energy = false;
  bool enabled() const { return off_after != kNever; }
};

enum class PowerTarget { kSleep, kCompute };
std::string to_string(PowerTarget target);

// A decision to switch machines: all to the same target.
struct PowerSwitch {
  MachineSet machines;
  PowerTarget target = PowerTarget::kSleep;
};

class PowerStates {
 public:
  PowerStates(int machine_count, PowerOptions options);

  const PowerOptions& options() const { return options_; }
  int switching() const { return count(State::kSwitchingOn) + count(State::kSwitchingOff); }

  // The first instant: every machine that has done nothing is idle from then.
  void begin(Time now);
  bool begun() const { return begun_; }
  // A job's machines are idle from `now`.
  void became_idle(const MachineSet& machines, Time now);
  // The platform reports that `machines` reached `target`. Returns the machines now awake (for
  // the pool). Throws std::invalid_argument naming a machine that was not switching there.
  MachineSet reached(const MachineSet& machines, PowerTarget target, Time now);

  // Adds to `releases` when the machines that are not awake could be awake at the earliest,
  // as planned ends; returns the entries added, for the caller to erase after the pass.
  std::vector<PlannedReleases::iterator> plan(PlannedReleases& releases, Time now) const;

  // The switches after a pass: `demand` nodes still wait, `pool` holds the awake idle machines.
  // The machines switched off must be taken out of the pool by the caller.
  std::vector<PowerSwitch> decide(Time now, long long demand, const MachinePool& pool);

  // The next time after `now` at which an awake idle machine reaches off_after; kNever if none.
  Time next_switch_off(Time now, const MachinePool& pool) const;

 private:
  enum class State : std::uint8_t { kAwake, kSwitchingOff, kAsleep, kSwitchingOn };
  MachineSet take(State from, State to, int count, bool lowest_first, Time now);
  MachineSet switch_off_idle(Time now, int count, const MachinePool& pool);
  void set(int id, State state, Time now);
  int count(State state) const { return counts_[static_cast<int>(state)]; }

  PowerOptions options_;
  std::vector<State> state_;
  // Awake: idle since (meaningful while idle); switching: since when.
  std::vector<Time> since_;
  int counts_[4] = {0, 0, 0, 0};
  bool begun_ = false;
};

}  // namespace batfill
