#include "platform.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace batfill::simulator {
namespace {

namespace sg4 = simgrid::s4u;

// A homogeneous cluster written as a SimGrid platform file, so the same loading path serves both
// cases. Link figures only matter for parallel profiles with communications.
std::string write_cluster_platform(int nodes) {
  char path[] = "/tmp/batfill-cluster-XXXXXX.xml";
  const int fd = mkstemps(path, 4);
  if (fd < 0) throw std::runtime_error("cannot create a temporary platform file in /tmp");
  close(fd);
  std::ofstream file(path);
  file << "<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\">\n"
          "  <cluster id=\"batfill_cluster\" prefix=\"node\" suffix=\"\" radical=\"0-"
       << nodes - 1
       << "\" speed=\"1Gf\" bw=\"10GBps\" lat=\"1us\" loopback_bw=\"100GBps\" loopback_lat=\"0\"/>\n"
          "</platform>\n";
  if (!file.flush()) throw std::runtime_error(std::string("cannot write ") + path);
  return path;
}

bool has_role(const sg4::Host* host, const std::string& role) {
  const char* value = host->get_property("role");
  return value != nullptr && role == value;
}

}  // namespace

Platform load_platform(simgrid::s4u::Engine& engine, const workload::Workload& workload,
                       const SimulationOptions& options) {
  Platform platform;
  if (options.platform_file.empty()) {
    const std::optional<int> nodes = options.nodes ? options.nodes : workload.machine_count;
    if (!nodes || *nodes <= 0) {
      throw std::runtime_error("no machine size for '" + workload.path +
                               "': give --nodes N or --platform FILE (the workload names none)");
    }
    const std::string file = write_cluster_platform(*nodes);
    engine.load_platform(file);
    std::remove(file.c_str());
    for (int id = 0; id < *nodes; ++id) {
      platform.compute_hosts.push_back(engine.host_by_name("node" + std::to_string(id)));
    }
    platform.server_host = platform.compute_hosts.front();
    return platform;
  }

  if (!std::ifstream(options.platform_file)) {
    throw std::runtime_error("cannot read platform file '" + options.platform_file + "'");
  }
  engine.load_platform(options.platform_file);
  // Batsim's rules: the master host (named master_host, or with role=master) runs Batsim itself
  // and storage hosts only serve IO; every other host is a compute machine, numbered in
  // SimGrid's host enumeration order like Batsim does (notes batsim-protocol.md §3.1).
  for (sg4::Host* host : engine.get_all_hosts()) {
    if (host->get_name() == "master_host" || has_role(host, "master")) {
      platform.server_host = host;
    } else if (!has_role(host, "storage")) {
      platform.compute_hosts.push_back(host);
    }
  }
  if (options.nodes) {
    if (*options.nodes <= 0 || *options.nodes > static_cast<int>(platform.compute_hosts.size())) {
      throw std::runtime_error("--nodes " + std::to_string(*options.nodes) + " but platform '" +
                               options.platform_file + "' has " +
                               std::to_string(platform.compute_hosts.size()) + " compute hosts");
    }
    platform.compute_hosts.resize(static_cast<std::size_t>(*options.nodes));
  }
  if (platform.compute_hosts.empty()) {
    throw std::runtime_error("platform '" + options.platform_file + "' has no compute host");
  }
  if (platform.server_host == nullptr) platform.server_host = platform.compute_hosts.front();
  return platform;
}

}  // namespace batfill::simulator
