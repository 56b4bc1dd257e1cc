#pragma once
// The simulated machine: a SimGrid/Batsim platform file, or a homogeneous cluster built for the
// run, and which of its hosts are Batsim's compute machines.

#include <simgrid/s4u.hpp>
#include <vector>

#include "batfill/simulator/simulation.hpp"

namespace batfill::simulator {

struct Platform {
  std::vector<simgrid::s4u::Host*> compute_hosts;  // index = Batsim machine id
  simgrid::s4u::Host* server_host = nullptr;       // runs the stand-in's own actor
};

// Loads options.platform_file, or builds a cluster of options.nodes (else the workload's
// machine size) hosts. Throws std::runtime_error naming the file or the missing size.
Platform load_platform(simgrid::s4u::Engine& engine, const workload::Workload& workload,
                       const SimulationOptions& options);

}  // namespace batfill::simulator
