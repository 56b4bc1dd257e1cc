#include "platform.hpp"

#include <simgrid/Exception.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <fstream>
#include <set>
#include <stdexcept>
#include <utility>

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

// Whether SimGrid finds a route from `from` to `to` without failing an assertion (its "Bad
// gateways for route", "No route from ... to ..."); `why` says what it found wrong. Hosts of a
// zone without routing (Batsim's *_no_net platforms) throw a plain std::out_of_range instead:
// Batsim runs such platforms, whose jobs never communicate, so they pass.
bool has_route(const sg4::Host* from, const sg4::Host* to, std::string& why) {
  std::vector<sg4::Link*> links;
  double latency = 0;
  try {
    from->route_to(to, links, &latency);
  } catch (const simgrid::AssertionError& e) {
    why = e.what();
    return false;
  } catch (const std::out_of_range&) {
  }
  return true;
}

// The first route between compute hosts that SimGrid refuses, as "from host 'A' to host 'B',
// which SimGrid would abort on: WHY"; "" when none. Only compute hosts communicate (a parallel
// job's). Hosts of one netzone route alike: each host is checked to and from one host of every
// netzone, not every host.
std::string first_route_failure(const std::vector<sg4::Host*>& hosts) {
  std::vector<const sg4::Host*> representatives;
  std::set<const sg4::NetZone*> zones;
  for (const sg4::Host* host : hosts) {
    if (zones.insert(host->get_englobing_zone()).second) representatives.push_back(host);
  }
  std::string why;
  for (const sg4::Host* host : hosts) {
    for (const sg4::Host* other : representatives) {
      if (other == host) continue;
      for (const auto& [from, to] : {std::pair{host, other}, std::pair{other, host}}) {
        if (!has_route(from, to, why)) {
          return "from host '" + from->get_name() + "' to host '" + to->get_name() +
                 "', which SimGrid would abort on: " + why;
        }
      }
    }
  }
  return "";
}

// SimGrid computes a route only when a job first communicates along it, and then aborts the
// whole process (with a backtrace) on a platform that has none, such as "Bad gateways for route"
// between two zones without a zoneRoute. So the routes a run may take are asked for here, at
// load, where a missing one is an error naming the file and the hosts, as Batsim 5 refuses such
// a platform at load. They are asked for in a child process: SimGrid 3.32 itself segfaults
// computing a route in a Full zone that declares none, a platform that runs jobs which never
// communicate, so such a crash says nothing against the platform and must not end the run.
void check_routes(const std::string& file, const std::vector<sg4::Host*>& hosts) {
  int channel[2];
  if (pipe(channel) != 0) return;
  const pid_t child = fork();
  if (child < 0) {
    close(channel[0]);
    close(channel[1]);
    return;
  }
  if (child == 0) {
    close(channel[0]);
    for (const int signal : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) std::signal(signal, SIG_DFL);
    const std::string failure = first_route_failure(hosts);
    std::size_t written = 0;
    while (written < failure.size()) {
      const ssize_t n = write(channel[1], failure.data() + written, failure.size() - written);
      if (n <= 0) break;
      written += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(channel[1]);
  std::string failure;
  char buffer[4096];
  for (ssize_t n; (n = read(channel[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    failure.append(buffer, static_cast<std::size_t>(n));
  }
  close(channel[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && !failure.empty()) {
    throw std::runtime_error("platform '" + file + "' has no usable route " + failure);
  }
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
  try {
    engine.load_platform(options.platform_file);
  } catch (const std::exception& e) {
    throw std::runtime_error("platform '" + options.platform_file + "': " + e.what());
  }
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
  check_routes(options.platform_file, platform.compute_hosts);
  return platform;
}

}  // namespace batfill::simulator
