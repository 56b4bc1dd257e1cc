// libFuzzer target: interval-set parsing and printing. A set that parses prints in canonical
// form, which parses back to the same set and prints the same text.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "batfill/common/machine_set.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  batfill::MachineSet machines;
  try {
    machines = batfill::parse_machine_set(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const std::string canonical = batfill::to_string(machines);
  const batfill::MachineSet again = batfill::parse_machine_set(canonical);
  if (again != machines || batfill::to_string(again) != canonical) std::abort();
  return 0;
}
