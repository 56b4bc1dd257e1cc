#include "power_model.hpp"

#include <simgrid/plugins/energy.h>
#include <simgrid/simix.hpp>

#include <map>
#include <stdexcept>

#include "batfill/common/text.hpp"

namespace batfill::simulator {
namespace {

namespace sg4 = simgrid::s4u;

const char* state_name(MachineState state) {
  switch (state) {
    case MachineState::kSleeping:
      return "sleeping";
    case MachineState::kSwitchingOn:
      return "switching on";
    case MachineState::kSwitchingOff:
      return "switching off";
    case MachineState::kIdle:
      return "idle";
    case MachineState::kComputing:
      return "computing a job";
  }
  return "";
}

std::size_t index_of(MachineState state) { return static_cast<std::size_t>(state); }

[[noreturn]] void invalid_decision(Time now, const std::string& what) {
  throw std::runtime_error("invalid decision at t=" + format_seconds(now) + ": " + what);
}

std::string decision_text(const protocol::SetResourceState& decision) {
  return protocol::event_type_name(decision) + " of machines " +
         quoted(to_string(decision.resources)) + " to pstate " + std::to_string(decision.pstate);
}

}  // namespace

PowerModel::PowerModel(const std::vector<sg4::Host*>& hosts, PowerTraces* traces)
    : traces_(traces) {
  std::map<int, MachineSet> by_pstate;
  for (sg4::Host* host : hosts) {
    Machine machine;
    machine.host = host;
    machine.power = read_host_power(*host);
    const int id = static_cast<int>(machines_.size());
    by_pstate[static_cast<int>(host->get_pstate())] += id;
    if (machine.power.sleeps_in(static_cast<int>(host->get_pstate()))) {
      machine.state = MachineState::kSleeping;
    }
    ++counts_[index_of(machine.state)];
    machines_.push_back(std::move(machine));
  }
  for (const auto& [pstate, machines] : by_pstate) trace_pstates(0, machines, pstate);
  watch_power_changes();
}

void PowerModel::check_machine(const protocol::SetResourceState& decision, int id, Time now) const {
  const Machine& machine = machines_[static_cast<std::size_t>(id)];
  const HostPower& power = machine.power;
  const int target = decision.pstate;
  const auto refuse = [&](const std::string& why) {
    invalid_decision(now, decision_text(decision) + ": machine " + std::to_string(id) + " ('" +
                              machine.host->get_name() + "') " + why);
  };
  if (!power.exists(target)) {
    refuse("has no pstate " + std::to_string(target) + " (it has " + std::to_string(power.count()) +
           ")");
  }
  if (!power.computes(target) && !power.sleeps_in(target)) {
    refuse("passes through pstate " + std::to_string(target) +
           " only while switching: no decision can ask for it");
  }
  const MachineState state = machine.state;
  if (state == MachineState::kSwitchingOn || state == MachineState::kSwitchingOff) {
    refuse(std::string("is ") + state_name(state));
  }
  const bool asleep = state == MachineState::kSleeping;
  if (asleep && power.sleeps_in(target)) {
    refuse("sleeps: it goes from one sleep pstate to another only through a computation pstate");
  }
  if (power.sleeps_in(target) && state == MachineState::kComputing) refuse("is computing a job");
  const bool switching = asleep || power.sleeps_in(target);
  if (decision.change == protocol::PowerChange::kComputationPState && switching) {
    refuse("would be turned on or off, which a change of computation pstate cannot do");
  }
  if (decision.change == protocol::PowerChange::kTurnOnOff && !switching) {
    refuse("would only change its computation pstate, which turning on or off cannot do");
  }
}

void PowerModel::check(const protocol::SetResourceState& decision, Time now) const {
  const int count = static_cast<int>(machines_.size());
  if (decision.resources.empty())
    invalid_decision(now, decision_text(decision) + " for no machine");
  if (boost::icl::first(decision.resources) < 0 || boost::icl::last(decision.resources) >= count) {
    invalid_decision(now,
                     decision_text(decision) + ": machines outside 0-" + std::to_string(count - 1));
  }
  for_each_id(decision.resources, [&](int id) { check_machine(decision, id, now); });
}

std::vector<SwitchStart> PowerModel::decide(const protocol::SetResourceState& decision, Time now,
                                            std::vector<protocol::Event>& acks) {
  check(decision, now);
  trace_energy(now, 'p');
  wattmin_.reset();
  ++grouped_switches_;
  machine_switches_ += machine_count(decision.resources);
  pending_.push_back({decision.resources, decision.resources, decision.pstate, decision.change});
  std::vector<SwitchStart> switches;
  // Batsim traces the whole decision as switching on or off by its first machine.
  const Machine& first = machines_[static_cast<std::size_t>(boost::icl::first(decision.resources))];
  trace_pstates(now, decision.resources, first.power.sleeps_in(decision.pstate) ? -2 : -1);
  for_each_id(decision.resources, [&](int id) {
    Machine& machine = machines_[static_cast<std::size_t>(id)];
    if (machine.state == MachineState::kSleeping) {
      const SleepPState& sleep =
          machine.power.sleep_state(static_cast<int>(machine.host->get_pstate()));
      change_state(id, MachineState::kSwitchingOn, now);
      switches.push_back({id, sleep.switch_on, decision.pstate});
    } else if (machine.power.sleeps_in(decision.pstate)) {
      change_state(id, MachineState::kSwitchingOff, now);
      switches.push_back(
          {id, machine.power.sleep_state(decision.pstate).switch_off, decision.pstate});
    } else {
      machine.host->set_pstate(static_cast<unsigned long>(decision.pstate));
      switch_done(id, decision.pstate, now, acks);
    }
  });
  trace_states(now);
  return switches;
}

void PowerModel::switch_done(int id, int pstate, Time now, std::vector<protocol::Event>& acks) {
  Machine& machine = machines_[static_cast<std::size_t>(id)];
  wattmin_.reset();
  if (machine.state == MachineState::kSwitchingOn) change_state(id, MachineState::kIdle, now);
  if (machine.state == MachineState::kSwitchingOff) change_state(id, MachineState::kSleeping, now);
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (it->target != pstate || !boost::icl::contains(it->switching, id)) continue;
    it->switching -= id;
    if (!it->switching.empty()) return;
    trace_pstates(now, it->all, it->target);
    trace_energy(now, 'p');
    trace_states(now);
    acks.push_back(acknowledgement(*it, now));
    pending_.erase(it);
    return;
  }
  throw std::logic_error("machine " + std::to_string(id) + " switched to pstate " +
                         std::to_string(pstate) + " without a decision");
}

protocol::Event PowerModel::acknowledgement(const PendingSwitch& done, Time now) const {
  return {now, protocol::ResourceStateChanged{done.all, done.target, done.change}};
}

void PowerModel::check_can_run(const std::string& job_id, const MachineSet& alloc, Time now) const {
  for_each_id(alloc, [&](int id) {
    const Machine& machine = machines_[static_cast<std::size_t>(id)];
    if (machine.state == MachineState::kSleeping || machine.state == MachineState::kSwitchingOn ||
        machine.state == MachineState::kSwitchingOff) {
      invalid_decision(now, "EXECUTE_JOB of " + quoted(job_id) + " on machine " +
                                std::to_string(id) + " ('" + machine.host->get_name() +
                                "'), which is " + state_name(machine.state));
    }
  });
}

double PowerModel::job_started(const MachineSet& alloc, Time now) {
  const double before = joules_of(alloc);
  trace_energy(now, 's');
  for_each_id(alloc, [&](int id) { change_state(id, MachineState::kComputing, now); });
  trace_states(now);
  return before;
}

double PowerModel::job_ended(const MachineSet& alloc, Time now) {
  for_each_id(alloc, [&](int id) { change_state(id, MachineState::kIdle, now); });
  const double after = joules_of(alloc);
  last_end_joules_ = total_joules();
  trace_energy(now, 'e');
  trace_states(now);
  return after;
}

void PowerModel::job_submitted() {
  if (!first_submission_joules_) first_submission_joules_ = total_joules();
}

void PowerModel::change_state(int id, MachineState state, Time now) {
  Machine& machine = machines_[static_cast<std::size_t>(id)];
  time_in_state_[index_of(machine.state)] += now - machine.since;
  --counts_[index_of(machine.state)];
  ++counts_[index_of(state)];
  machine.state = state;
  machine.since = now;
}

void PowerModel::watch_power_changes() {
  const std::weak_ptr<PowerChanges> changes = changes_;
  sg4::Exec::on_start_cb([changes](const sg4::Exec&) {
    if (const auto watched = changes.lock()) {
      ++watched->executions;
      watched->since_read = true;
    }
  });
  sg4::Activity::on_completion_cb([changes](const sg4::Activity& activity) {
    if (dynamic_cast<const sg4::Exec*>(&activity) == nullptr) return;
    if (const auto watched = changes.lock()) {
      --watched->executions;
      watched->since_read = true;
    }
  });
  sg4::Host::on_speed_change_cb([changes](const sg4::Host&) {
    if (const auto watched = changes.lock()) watched->since_read = true;
  });
}

// The plugin brings a host's count up to SimGrid's clock lazily, at a read, each read a simcall:
// reading the machines in one simcall (where the plugin's own simcalls run directly) makes every
// later read at the same clock a plain read. Reading every machine at every instant made an
// --energy replay of a thousand machines fifteen times slower than without: while nothing runs
// in SimGrid and no pstate changes, each machine draws a constant power, so the total grows by
// their summed power times the time since the last read.
// The joules consumed by a time do not depend on what changes at that time: the total is kept
// for the clock, and the least power until a pstate changes.
void PowerModel::update_joules() const {
  const double clock = sg4::Engine::get_clock();
  if (clock == updated_at_) return;
  if (updated_at_ >= 0 && changes_->executions == 0 && !changes_->since_read) {
    total_ += watts_ * (clock - updated_at_);
    updated_at_ = clock;
    return;
  }
  simgrid::kernel::actor::simcall_answered([this] {
    total_ = 0;
    watts_ = 0;
    for (const Machine& machine : machines_) {
      total_ += sg_host_get_consumed_energy(machine.host);
      watts_ += sg_host_get_current_consumption(machine.host);
    }
  });
  changes_->since_read = false;
  updated_at_ = clock;
  wattmin_.reset();
}

double PowerModel::joules_of(const MachineSet& machines) const {
  update_joules();
  double joules = 0;
  for_each_id(machines, [&](int id) {
    joules += sg_host_get_consumed_energy(machines_[static_cast<std::size_t>(id)].host);
  });
  return joules;
}

double PowerModel::total_joules() const {
  update_joules();
  return total_;
}

double PowerModel::wattmin() const {
  update_joules();
  if (wattmin_) return *wattmin_;
  double watts = 0;
  for (const Machine& machine : machines_) {
    watts += sg_host_get_wattmin_at(machine.host, static_cast<int>(machine.host->get_pstate()));
  }
  wattmin_ = watts;
  return watts;
}

void PowerModel::trace_energy(Time now, char event) const {
  if (traces_ != nullptr) traces_->energy(to_seconds(now), total_joules(), event, wattmin());
}

void PowerModel::trace_states(Time now) const {
  if (traces_ != nullptr) traces_->machine_states(to_seconds(now), counts_);
}

void PowerModel::trace_pstates(Time now, const MachineSet& machines, int pstate) const {
  if (traces_ != nullptr) traces_->pstate_change(to_seconds(now), machines, pstate);
}

EnergyFigures PowerModel::figures() const {
  EnergyFigures figures;
  figures.consumed_joules = last_end_joules_ - first_submission_joules_.value_or(0);
  figures.nb_machine_switches = machine_switches_;
  figures.nb_grouped_switches = grouped_switches_;
  for (std::size_t state = 0; state < kMachineStates; ++state) {
    figures.seconds_in_state[state] = to_seconds(time_in_state_[state]);
  }
  return figures;
}

}  // namespace batfill::simulator
