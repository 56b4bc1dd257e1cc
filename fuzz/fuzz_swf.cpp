// libFuzzer target: the SWF reader on arbitrary text. Any outcome but a crash, a leak or a hang
// is fine: a clear std::exception is the reader's way to refuse (docs/semantics.md#input-limits).
#include <cstdint>
#include <stdexcept>
#include <string>

#include "batfill/workload/workload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    batfill::workload::read_swf("fuzz.swf", text, {});
  } catch (const std::exception&) {
  }
  return 0;
}
