// libFuzzer target: Batsim 5's handshake as `serve --protocol batsim5` and libbatfill_edc.so
// read it. The input is the process mode's init message (a u32 length, then the init string);
// when its length does not match, the whole input is taken as the init string the library gets
// (a pointer and a size, NULs included). Whatever the bytes, an error is an exception, never a
// crash; and an init string with a NUL before its last non-NUL byte is always refused, since the
// whole buffer is the input (docs/reliability.md).
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "batfill/adapter/batsim5_session.hpp"
#include "batfill/protocol/batsim5_handshake.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::string_view init = bytes;
  try {
    init = batfill::protocol::batsim5::init_of_handshake(bytes);
  } catch (const std::invalid_argument&) {
  }
  std::string_view content = init;
  while (!content.empty() && content.back() == '\0') content.remove_suffix(1);
  const bool embedded_nul = content.find('\0') != std::string_view::npos;
  std::ostringstream log;
  try {
    batfill::adapter::Batsim5Session session(
        batfill::adapter::Settings{},
        batfill::adapter::Log(batfill::adapter::Verbosity::kQuiet, log));
    const std::string& hello = session.initialise(init);
    if (embedded_nul) std::abort();  // text after a NUL was ignored
    if (hello.empty()) std::abort();
  } catch (const std::exception&) {
  }
  return 0;
}
