#include "platform.hpp"

#include <fstream>
#include <stdexcept>

namespace batfill::simulator {
namespace {

namespace sg4 = simgrid::s4u;

// The homogeneous cluster, built as SimGrid builds a flat XML <cluster id="batfill_cluster"
// prefix="node" radical="0-(n-1)" speed="1Gf" bw="10GBps" lat="1us" loopback_bw="100GBps"
// loopback_lat="0"/>: a star of split-duplex private links with a loopback per host, no
// backbone. Link figures only matter for parallel profiles with communications.
std::vector<sg4::Host*> build_cluster(int nodes) {
  sg4::NetZone* zone = sg4::create_star_zone("batfill_cluster");
  std::vector<sg4::Host*> hosts;
  for (int id = 0; id < nodes; ++id) {
    sg4::Host* host = zone->create_host("node" + std::to_string(id), 1e9)->seal();
    const std::string link_name = "batfill_cluster_link_" + std::to_string(id);
    const sg4::Link* loopback = zone->create_link(link_name + "_loopback", 100e9)
                                    ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
                                    ->set_latency(0)
                                    ->seal();
    zone->add_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr,
                    {sg4::LinkInRoute(loopback)});
    const sg4::Link* link =
        zone->create_split_duplex_link(link_name, 10e9)->set_latency(1e-6)->seal();
    // From the host to any other: its link up; the symmetrical route comes back down it.
    zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr,
                    {sg4::LinkInRoute(link, sg4::LinkInRoute::Direction::UP)}, true);
    hosts.push_back(host);
  }
  // The router SimGrid adds to every flat cluster, so that the platform is the same.
  zone->add_route(zone->create_router("nodebatfill_cluster_router"), nullptr, nullptr, nullptr, {});
  zone->seal();
  return hosts;
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
    platform.compute_hosts = build_cluster(*nodes);
    platform.server_host = platform.compute_hosts.front();
    return platform;
  }

  if (!std::ifstream(options.platform_file)) {
    throw std::runtime_error("cannot read platform file '" + options.platform_file + "'");
  }
  engine.load_platform(options.platform_file);
  // Batsim's rules: the master host (named master_host, or with role=master) runs Batsim itself
  // and storage hosts only serve IO; every other host is a compute machine, numbered in
  // SimGrid's host enumeration order like Batsim does.
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
