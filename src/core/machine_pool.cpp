#include "batfill/core/machine_pool.hpp"

#include <stdexcept>

namespace batfill {
namespace {

using Interval = boost::icl::discrete_interval<int>;

MachineSet lowest(const MachineSet& free, int count) {
  MachineSet chosen;
  for (const Interval& interval : free) {
    if (count == 0) break;
    const int first = boost::icl::first(interval);
    const int take = std::min(count, static_cast<int>(boost::icl::cardinality(interval)));
    chosen.insert(Interval::closed(first, first + take - 1));
    count -= take;
  }
  return chosen;
}

}  // namespace

AllocationRule parse_allocation_rule(const std::string& name) {
  if (name == "lowest") return AllocationRule::kLowest;
  if (name == "contiguous") return AllocationRule::kContiguous;
  throw std::invalid_argument("unknown allocation rule '" + name +
                              "' (valid: lowest, contiguous)");
}

std::string to_string(AllocationRule rule) {
  return rule == AllocationRule::kLowest ? "lowest" : "contiguous";
}

MachinePool::MachinePool(int machine_count)
    : size_(machine_count), free_(machine_range(0, machine_count - 1)), free_count_(machine_count) {}

MachineSet MachinePool::allocate(int count, AllocationRule rule) {
  if (count > free_count()) {
    throw std::logic_error("allocation of " + std::to_string(count) + " machines with only " +
                           std::to_string(free_count()) + " free");
  }
  MachineSet chosen;
  if (rule == AllocationRule::kContiguous) {
    for (const Interval& interval : free_) {
      if (static_cast<int>(boost::icl::cardinality(interval)) >= count) {
        const int first = boost::icl::first(interval);
        chosen = machine_range(first, first + count - 1);
        break;
      }
    }
  }
  if (chosen.empty()) chosen = lowest(free_, count);
  free_ -= chosen;
  busy_ += chosen;
  free_count_ -= count;
  return chosen;
}

void MachinePool::release(const MachineSet& machines) {
  busy_ -= machines;
  // Usually nothing is unavailable: the set difference would only copy `machines`.
  if (unavailable_.empty()) {
    free_ += machines;
    free_count_ += machine_count(machines);
  } else {
    free_ += machines - unavailable_;
    free_count_ = machine_count(free_);
  }
}

void MachinePool::mark_unavailable(const MachineSet& machines) {
  const MachineSet in_range = machines & machine_range(0, size_ - 1);
  unavailable_ += in_range;
  free_ -= in_range;
  free_count_ = machine_count(free_);
}

void MachinePool::mark_available(const MachineSet& machines) {
  unavailable_ -= machines;
  free_ += (machines & machine_range(0, size_ - 1)) - busy_;
  free_count_ = machine_count(free_);
}

}  // namespace batfill
