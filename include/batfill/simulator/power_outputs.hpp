#pragma once
// The energy outputs of `simulate --energy`, in Batsim 4.2.1's formats
// (docs/protocol.md#the-power-model-of-the-stand-in): PREFIX_consumed_energy.csv,
// PREFIX_machine_states.csv and PREFIX_pstate_changes.csv as the run goes, and the energy figures
// of _schedule.csv and the summary at its end.

#include <array>
#include <ostream>
#include <string>

#include "batfill/common/machine_set.hpp"

namespace batfill::simulator {

// A machine's state, in the order of PREFIX_machine_states.csv's columns.
enum class MachineState { kSleeping, kSwitchingOn, kSwitchingOff, kIdle, kComputing };
constexpr std::size_t kMachineStates = 5;

struct EnergyFigures {
  // Joules of every machine from the first job's submission to the last job's end, as Batsim
  // counts consumed_joules.
  double consumed_joules = 0;
  long long nb_machine_switches = 0;  // machines named by switching decisions
  long long nb_grouped_switches = 0;  // switching decisions
  // Machine-seconds in each state, each machine counted up to its last change of state, as
  // Batsim counts them; by MachineState.
  std::array<double, kMachineStates> seconds_in_state{};
};

// The three files' rows, written as events happen. Times as Batsim writes them: "%g" seconds in
// _machine_states.csv and _pstate_changes.csv, "%f" in _consumed_energy.csv.
class PowerTraces {
 public:
  PowerTraces(std::ostream& consumed_energy, std::ostream& machine_states,
              std::ostream& pstate_changes);
  // `event`: 's' a job starts, 'e' a job ends, 'p' a power decision or its end. `wattmin`: the
  // machines' least power in their current pstates.
  void energy(double seconds, double joules, char event, double wattmin);
  void machine_states(double seconds, const std::array<int, kMachineStates>& counts);
  // `pstate`: the pstate reached, or -1 (switching on) or -2 (switching off) while switching.
  void pstate_change(double seconds, const MachineSet& machines, int pstate);

 private:
  std::ostream& consumed_energy_;
  std::ostream& machine_states_;
  std::ostream& pstate_changes_;
  double last_seconds_ = 0;
  double last_joules_ = 0;
};

}  // namespace batfill::simulator
