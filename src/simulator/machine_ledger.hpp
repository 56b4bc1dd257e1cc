#pragma once
// Which machines the stand-in's jobs hold: an allocation (EXECUTE_JOB or a resize grant) owns its
// machines from its start to its job's end, as in Batsim, which aborts on a machine given twice.

#include "batfill/common/machine_bits.hpp"
#include "batfill/common/machine_set.hpp"

namespace batfill::simulator {

class MachineLedger {
 public:
  explicit MachineLedger(int machine_count);

  int machine_count() const { return busy_.size(); }
  // The machines must exist (ReplyChecker::check_allocation).
  void occupy(const MachineSet& machines) { mark(machines, true); }
  void release(const MachineSet& machines) { mark(machines, false); }

  bool any_busy(const MachineSet& machines) const;
  MachineSet busy_among(const MachineSet& machines) const;  // for an error message

 private:
  void mark(const MachineSet& machines, bool busy);

  // Bits by machine id rather than a MachineSet: set operations on interval trees at every
  // start and completion cost more.
  MachineBits busy_;
};

}  // namespace batfill::simulator
