// libFuzzer target: the Batsim message codec. A message that parses must write back to JSON
// that parses and writes again to the very same text: numbers are read exactly and written in
// their shortest form, so a second round trip changes nothing
// (docs/protocol.md#what-a-request-must-satisfy).
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "batfill/protocol/codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  batfill::protocol::Message message;
  try {
    message = batfill::protocol::parse_message(text);
  } catch (const batfill::protocol::ProtocolError&) {
    return 0;
  }
  std::string written;
  try {
    written = batfill::protocol::write_message(message);
  } catch (const std::invalid_argument&) {
    return 0;  // a request-only event, or a value batfill refuses to send
  }
  const std::string again =
      batfill::protocol::write_message(batfill::protocol::parse_message(written));
  if (again != written) std::abort();
  return 0;
}
