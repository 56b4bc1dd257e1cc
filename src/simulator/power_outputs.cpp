#include "batfill/simulator/power_outputs.hpp"

#include <cstdio>

namespace batfill::simulator {

PowerTraces::PowerTraces(std::ostream& consumed_energy, std::ostream& machine_states,
                         std::ostream& pstate_changes)
    : consumed_energy_(consumed_energy),
      machine_states_(machine_states),
      pstate_changes_(pstate_changes) {
  consumed_energy_ << "time,energy,event_type,wattmin,epower\n";
  machine_states_ << "time,nb_sleeping,nb_switching_on,nb_switching_off,nb_idle,nb_computing\n";
  pstate_changes_ << "time,machine_id,new_pstate\n";
}

// epower: the mean power since the previous row, NA when no time has passed.
void PowerTraces::energy(double seconds, double joules, char event, double wattmin) {
  char line[256];
  const double elapsed = seconds - last_seconds_;
  if (elapsed > 0) {
    std::snprintf(line, sizeof line, "%f,%f,%c,%f,%f\n", seconds, joules, event, wattmin,
                  (joules - last_joules_) / elapsed);
  } else {
    std::snprintf(line, sizeof line, "%f,%f,%c,%f,NA\n", seconds, joules, event, wattmin);
  }
  consumed_energy_ << line;
  last_seconds_ = seconds;
  last_joules_ = joules;
}

void PowerTraces::machine_states(double seconds, const std::array<int, kMachineStates>& counts) {
  char line[160];
  std::snprintf(line, sizeof line, "%g,%d,%d,%d,%d,%d\n", seconds, counts[0], counts[1], counts[2],
                counts[3], counts[4]);
  machine_states_ << line;
}

void PowerTraces::pstate_change(double seconds, const MachineSet& machines, int pstate) {
  char time[64];
  std::snprintf(time, sizeof time, "%g", seconds);
  pstate_changes_ << time << ',' << to_string(machines) << ',' << pstate << '\n';
}

}  // namespace batfill::simulator
