#pragma once
// The power model of the stand-in with --energy, as Batsim 4.2.1 defines it
// (docs/protocol.md#the-power-model-of-the-stand-in): each machine's state and pstate, the
// checks of power decisions, the switches' groups and acknowledgements, and the energy SimGrid's
// host energy plugin measures.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "batfill/common/machine_set.hpp"
#include "batfill/common/time.hpp"
#include "batfill/protocol/messages.hpp"
#include "batfill/simulator/power_outputs.hpp"
#include "power_platform.hpp"

namespace batfill::simulator {

// A switch to run: one flop on the machine in `virtual_pstate`, then `target`.
struct SwitchStart {
  int machine = 0;
  int virtual_pstate = 0;
  int target = 0;
};

class PowerModel {
 public:
  // `traces` may be null (no files); it must outlive the model.
  PowerModel(const std::vector<simgrid::s4u::Host*>& hosts, PowerTraces* traces);

  // Applies a power decision at `now`, or throws naming it when Batsim would refuse it. Changes
  // between computation pstates happen at once; switches on and off are returned to be run.
  // A decision whose machines have all reached their pstate adds its acknowledgement to `acks`.
  std::vector<SwitchStart> decide(const protocol::SetResourceState& decision, Time now,
                                  std::vector<protocol::Event>& acks);
  // The switch of `machine` to `pstate` has ended at `now`.
  void switch_done(int machine, int pstate, Time now, std::vector<protocol::Event>& acks);

  // Throws when a machine of `alloc` cannot run a job now (asleep or switching).
  void check_can_run(const std::string& job_id, const MachineSet& alloc, Time now) const;
  // The joules `alloc` has consumed so far, before its machines compute, or after.
  double job_started(const MachineSet& alloc, Time now);
  double job_ended(const MachineSet& alloc, Time now);
  void job_submitted();  // the first one starts consumed_joules

  double total_joules() const;
  EnergyFigures figures() const;

 private:
  struct Machine {
    simgrid::s4u::Host* host = nullptr;
    HostPower power;
    MachineState state = MachineState::kIdle;
    Time since = 0;
  };
  // One decision's machines, until every one has switched.
  struct PendingSwitch {
    MachineSet all;
    MachineSet switching;
    int target = 0;
    protocol::PowerChange change = protocol::PowerChange::kByPlatform;
  };

  void check(const protocol::SetResourceState& decision, Time now) const;
  void check_machine(const protocol::SetResourceState& decision, int id, Time now) const;
  void change_state(int id, MachineState state, Time now);
  void watch_power_changes();
  void update_joules() const;
  double joules_of(const MachineSet& machines) const;
  double wattmin() const;
  void trace_energy(Time now, char event) const;
  void trace_states(Time now) const;
  void trace_pstates(Time now, const MachineSet& machines, int pstate) const;
  protocol::Event acknowledgement(const PendingSwitch& done, Time now) const;

  std::vector<Machine> machines_;
  PowerTraces* traces_;
  std::vector<PendingSwitch> pending_;
  std::array<int, kMachineStates> counts_{};
  std::array<Time, kMachineStates> time_in_state_{};
  std::optional<double> first_submission_joules_;
  double last_end_joules_ = 0;
  long long machine_switches_ = 0;
  long long grouped_switches_ = 0;
  // Whether some machine's power may have changed since the joules were last read: a SimGrid
  // execution (a parallel task or a switch) runs or ended, or a pstate changed. Shared with
  // SimGrid's signals, which outlive the model.
  struct PowerChanges {
    int executions = 0;
    bool since_read = true;
  };

  // SimGrid's clock when every machine's joules were last read, their sum then, the machines'
  // power then, and the sum of their least powers in their pstates (reset when a pstate changes).
  mutable double updated_at_ = -1;
  mutable double total_ = 0;
  mutable double watts_ = 0;
  mutable std::optional<double> wattmin_;
  std::shared_ptr<PowerChanges> changes_ = std::make_shared<PowerChanges>();
};

}  // namespace batfill::simulator
