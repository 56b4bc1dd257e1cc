// libFuzzer target: the Batsim 5 (batprotocol JSON) codec. A message that decodes must encode
// to JSON that decodes and encodes again to the very same text.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "batfill/protocol/batsim5_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace batsim5 = batfill::protocol::batsim5;
  const std::string text(reinterpret_cast<const char*>(data), size);
  batsim5::ParsedMessage parsed;
  try {
    parsed = batsim5::decode(text);
  } catch (const batfill::protocol::ProtocolError&) {
    return 0;
  }
  std::string written;
  try {
    written = batsim5::encode(parsed.message);
  } catch (const std::invalid_argument&) {
    return 0;  // a value batfill refuses to send
  }
  const std::string again = batsim5::encode(batsim5::decode(written).message);
  if (again != written) std::abort();
  return 0;
}
