#include "machine_ledger.hpp"

namespace batfill::simulator {

MachineLedger::MachineLedger(int machine_count) : busy_(machine_count) {}

bool MachineLedger::any_busy(const MachineSet& machines) const {
  bool any = false;
  for (const auto& interval : machines) {
    busy_.for_each_word(
        boost::icl::first(interval), boost::icl::last(interval),
        [&](std::size_t w, MachineBits::Word mask) { any = any || (busy_.word(w) & mask) != 0; });
  }
  return any;
}

MachineSet MachineLedger::busy_among(const MachineSet& machines) const {
  MachineSet busy;
  for_each_id(machines, [&](int id) {
    if (busy_.test(id)) busy += id;
  });
  return busy;
}

void MachineLedger::mark(const MachineSet& machines, bool busy) {
  for (const auto& interval : machines) {
    busy_.for_each_word(boost::icl::first(interval), boost::icl::last(interval),
                        [&](std::size_t w, MachineBits::Word mask) {
                          busy_.word(w) = busy ? busy_.word(w) | mask : busy_.word(w) & ~mask;
                        });
  }
}

}  // namespace batfill::simulator
