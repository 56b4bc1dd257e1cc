#pragma once
// The power states of a platform's hosts, read from their properties as Batsim 4.2.1 reads them
// with --energy (docs/protocol.md#the-power-model-of-the-stand-in): `wattage_per_state` (or the
// older `watt_per_state`), `wattage_off` and `sleep_pstates`.

#include <simgrid/s4u.hpp>
#include <vector>

namespace batfill::simulator {

enum class PStateKind { kComputation, kSleep, kVirtual };

// A sleep pstate and the virtual pstates a machine passes through to reach it and to leave it
// (`sleep_pstates` is a comma-separated list of "sleep:off:on").
struct SleepPState {
  int sleep = 0;
  int switch_off = 0;
  int switch_on = 0;
};

struct HostPower {
  std::vector<PStateKind> kinds;    // by pstate
  std::vector<SleepPState> sleeps;  // in the property's order

  int count() const { return static_cast<int>(kinds.size()); }
  bool exists(int pstate) const { return pstate >= 0 && pstate < count(); }
  bool computes(int pstate) const {
    return exists(pstate) && kinds[static_cast<std::size_t>(pstate)] == PStateKind::kComputation;
  }
  bool sleeps_in(int pstate) const {
    return exists(pstate) && kinds[static_cast<std::size_t>(pstate)] == PStateKind::kSleep;
  }
  const SleepPState& sleep_state(int pstate) const;  // pstate must be a sleep pstate
};

// Checks the power properties of `host` before SimGrid's energy plugin reads them (it aborts
// the process on a malformed one), and gives an older `watt_per_state` its current name. Throws
// std::runtime_error naming the host and the property.
void prepare_power_properties(simgrid::s4u::Host& host);

// The pstates of `host`, whose properties prepare_power_properties accepted. Throws
// std::runtime_error naming the host and the property for a compute host without power values
// or with a computation pstate of no speed.
HostPower read_host_power(const simgrid::s4u::Host& host);

}  // namespace batfill::simulator
