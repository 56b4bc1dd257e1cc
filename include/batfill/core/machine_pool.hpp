#pragma once
// Which machines are free, busy or unavailable, and which free machines a starting job gets.
//
// Policies only count nodes; the pool turns a count into concrete ids. The choice of ids never
// changes which jobs start when, only where they run.

#include <string>

#include "batfill/core/machine_set.hpp"

namespace batfill {

enum class AllocationRule {
  kLowest,      // the lowest free ids
  kContiguous,  // the lowest free block long enough, else the lowest free ids
};

// "lowest" or "contiguous"; throws std::invalid_argument listing the valid names otherwise.
AllocationRule parse_allocation_rule(const std::string& name);
std::string to_string(AllocationRule rule);

class MachinePool {
 public:
  explicit MachinePool(int machine_count);

  int size() const { return size_; }
  int free_count() const { return free_count_; }
  const MachineSet& free_machines() const { return free_; }

  // Takes `count` free machines. Precondition: count <= free_count().
  MachineSet allocate(int count, AllocationRule rule);
  // Returns machines of a finished job; those marked unavailable meanwhile stay out of use.
  void release(const MachineSet& machines);

  // Batsim's machine_unavailable / machine_available external events. A busy machine that
  // becomes unavailable keeps its job but is not handed out again until available.
  void mark_unavailable(const MachineSet& machines);
  void mark_available(const MachineSet& machines);

 private:
  int size_;
  MachineSet free_;
  MachineSet busy_;
  MachineSet unavailable_;
  int free_count_;  // machine_count(free_), kept up to date: policies ask for it at every pass
};

}  // namespace batfill
