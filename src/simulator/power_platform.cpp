#include "power_platform.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace batfill::simulator {
namespace {

namespace sg4 = simgrid::s4u;

constexpr const char* kWattage = "wattage_per_state";
constexpr const char* kOlderWattage = "watt_per_state";
constexpr const char* kWattageOff = "wattage_off";
constexpr const char* kSleepPStates = "sleep_pstates";

[[noreturn]] void fail(const sg4::Host& host, const char* property, const std::string& why) {
  throw std::runtime_error("host '" + host.get_name() + "': property '" + property + "' " + why);
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(separator, begin);
    parts.emplace_back(text.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
}

// A power in watts: a finite number >= 0, the whole text.
bool read_watts(const std::string& text, double& watts) {
  const std::string number = trimmed(text);
  if (number.empty()) return false;
  char* end = nullptr;
  errno = 0;
  watts = std::strtod(number.c_str(), &end);
  return errno == 0 && *end == '\0' && std::isfinite(watts) && watts >= 0;
}

bool read_pstate(const std::string& text, int count, int& pstate) {
  const std::string number = trimmed(text);
  if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos ||
      number.size() > 9) {
    return false;
  }
  pstate = std::stoi(number);
  return pstate < count;
}

// "Idle:AllCores" or "Idle:Epsilon:AllCores" per pstate, as SimGrid's energy plugin reads them.
void check_wattage(const sg4::Host& host, const char* property, const std::string& value) {
  const std::vector<std::string> states = split(value, ',');
  const auto count = static_cast<std::size_t>(host.get_pstate_count());
  if (states.size() != count) {
    fail(host, property,
         "gives " + std::to_string(states.size()) + " power ranges for " + std::to_string(count) +
             " pstates: '" + value + "'");
  }
  for (std::size_t pstate = 0; pstate < count; ++pstate) {
    const std::vector<std::string> watts = split(states[pstate], ':');
    double ignored = 0;
    bool valid = watts.size() == 2 || watts.size() == 3;
    for (const std::string& part : watts) valid = valid && read_watts(part, ignored);
    if (!valid) {
      fail(host, property,
           "has '" + trimmed(states[pstate]) + "' for pstate " + std::to_string(pstate) +
               ": expected Idle:AllCores or Idle:Epsilon:AllCores, powers in watts >= 0");
    }
  }
}

SleepPState read_sleep_triplet(const sg4::Host& host, const std::string& triplet, int count) {
  const std::vector<std::string> parts = split(triplet, ':');
  SleepPState sleep;
  const bool valid = parts.size() == 3 && read_pstate(parts[0], count, sleep.sleep) &&
                     read_pstate(parts[1], count, sleep.switch_off) &&
                     read_pstate(parts[2], count, sleep.switch_on);
  if (!valid) {
    fail(host, kSleepPStates,
         "has '" + trimmed(triplet) + "': expected sleep:off:on, three pstates of the host's " +
             std::to_string(count) + " (0 to " + std::to_string(count - 1) + ")");
  }
  return sleep;
}

// Each pstate has one role: computing, sleeping, or virtual (a switch's way into or out of a
// sleep pstate); pstates no triplet names compute.
void assign(const sg4::Host& host, HostPower& power, std::vector<bool>& assigned, int pstate,
            PStateKind kind) {
  const auto index = static_cast<std::size_t>(pstate);
  const bool both_virtual = kind == PStateKind::kVirtual && power.kinds[index] == kind;
  if (assigned[index] && !both_virtual) {
    fail(host, kSleepPStates,
         "gives pstate " + std::to_string(pstate) +
             " two roles (a pstate sleeps, is a switch's virtual pstate, or computes)");
  }
  assigned[index] = true;
  power.kinds[index] = kind;
}

}  // namespace

const SleepPState& HostPower::sleep_state(int pstate) const {
  for (const SleepPState& sleep : sleeps) {
    if (sleep.sleep == pstate) return sleep;
  }
  throw std::logic_error("pstate " + std::to_string(pstate) + " is no sleep pstate");
}

void prepare_power_properties(sg4::Host& host) {
  const char* wattage = host.get_property(kWattage);
  const char* older = host.get_property(kOlderWattage);
  if (wattage != nullptr) {
    check_wattage(host, kWattage, wattage);
  } else if (older != nullptr) {
    check_wattage(host, kOlderWattage, older);
    host.set_property(kWattage, older);
  }
  if (const char* off = host.get_property(kWattageOff); off != nullptr) {
    double ignored = 0;
    if (!read_watts(off, ignored)) {
      fail(host, kWattageOff, std::string("is '") + off + "': expected a power in watts >= 0");
    }
  }
  if (host.get_property(kSleepPStates) != nullptr) read_host_power(host);
}

HostPower read_host_power(const sg4::Host& host) {
  const int count = static_cast<int>(host.get_pstate_count());
  HostPower power;
  power.kinds.assign(static_cast<std::size_t>(count), PStateKind::kComputation);
  std::vector<bool> assigned(static_cast<std::size_t>(count), false);
  if (const char* sleeps = host.get_property(kSleepPStates); sleeps != nullptr) {
    for (const std::string& triplet : split(sleeps, ',')) {
      const SleepPState sleep = read_sleep_triplet(host, triplet, count);
      assign(host, power, assigned, sleep.sleep, PStateKind::kSleep);
      assign(host, power, assigned, sleep.switch_off, PStateKind::kVirtual);
      assign(host, power, assigned, sleep.switch_on, PStateKind::kVirtual);
      power.sleeps.push_back(sleep);
    }
  }
  if (host.get_property(kWattage) == nullptr) {
    fail(host, kWattage, "is missing: a compute host needs its power per pstate with --energy");
  }
  for (int pstate = 0; pstate < count; ++pstate) {
    if (power.computes(pstate) &&
        !(host.get_pstate_speed(static_cast<unsigned long>(pstate)) > 0)) {
      fail(host, kSleepPStates,
           "leaves pstate " + std::to_string(pstate) +
               " computing, but its speed is not positive (name it in a sleep triplet)");
    }
  }
  return power;
}

}  // namespace batfill::simulator
