#pragma once
// Which machines are free, busy or unavailable, and which free machines a starting job gets.
//
// Policies only count nodes; the pool turns a count into concrete ids. The choice of ids never
// changes which jobs start when, only where they run.

#include <cstdint>
#include <string>
#include <vector>

#include "batfill/common/machine_bits.hpp"
#include "batfill/common/machine_set.hpp"

namespace batfill {

enum class AllocationRule {
  kLowest,      // the lowest free ids
  kContiguous,  // the lowest free block long enough, else the lowest free ids
  kRandom,      // free ids drawn at random, from a fixed seed: the same run gives the same draws
};

// "lowest", "contiguous" or "random"; throws std::invalid_argument listing the valid names
// otherwise.
AllocationRule parse_allocation_rule(const std::string& name);
std::string to_string(AllocationRule rule);

class MachinePool {
 public:
  explicit MachinePool(int machine_count);

  int size() const { return size_; }
  int free_count() const { return free_count_; }

  // Takes `count` free machines. Precondition: count <= free_count().
  MachineSet allocate(int count, AllocationRule rule);
  // Returns machines of a finished job; those marked unavailable meanwhile stay out of use.
  void release(const MachineSet& machines);

  // Batsim's machine_unavailable / machine_available external events. A busy machine that
  // becomes unavailable keeps its job but is not handed out again until available.
  void mark_unavailable(const MachineSet& machines);
  void mark_available(const MachineSet& machines);

  // Idle power-off (docs/semantics.md#idle-power-off-power_off_after): idle machines switched off
  // are out of use until they are awake again. Precondition of power_down: the machines are free.
  void power_down(const MachineSet& machines);
  void power_up(const MachineSet& machines);
  bool is_free(int id) const { return id >= 0 && id < size_ && free_.test(id); }

 private:
  // Machine states are bit tables changed a word at a time (machine_bits.hpp), free machines
  // searched the same way, rather than interval sets, whose arithmetic dominated the core's own
  // cost at every start and completion.
  int next_with_state(int from, bool free) const;
  template <typename Visit>
  void for_each_free_run(Visit visit) const;
  // Calls change(index, mask) for the words of the machines' ids, ids outside 0..size-1 skipped.
  template <typename Change>
  void for_each_word(const MachineSet& machines, Change change) const;
  void take_out(MachineBits& reason, const MachineSet& machines);
  MachineSet draw_free(int count);
  std::uint64_t next_draw();
  void put_back(MachineBits& reason, const MachineSet& machines);

  int size_;
  MachineBits free_;         // available and idle
  MachineBits busy_;         // runs a job
  MachineBits unavailable_;  // out of use (a busy one keeps its job)
  MachineBits powered_off_;  // asleep or switching (idle-power-off only)
  int free_count_ = 0;
  std::uint64_t draws_ = 0;  // kRandom's state
};

}  // namespace batfill
