// libFuzzer target: a whole `serve` exchange without a socket. The first byte picks the policy,
// the rest is a sequence of Batsim requests, one per line, answered by a Batsim4Session as serve
// does until one is refused (RequestError) or SIMULATION_ENDS is answered.
#include <cstdint>
#include <sstream>
#include <string>

#include "batfill/adapter/batsim4_session.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const char* const kPolicies[] = {"easy", "conservative", "easy-classic",
                                          "conservative-classic", "none"};
  if (size == 0) return 0;
  const std::string policy = kPolicies[data[0] % 5];
  std::ostringstream log;
  batfill::adapter::Settings settings;
  settings.policy = policy;
  batfill::adapter::Batsim4Session session(
      settings, batfill::adapter::Log(batfill::adapter::Verbosity::kQuiet, log));
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::istringstream lines(text);
  std::string request;
  while (std::getline(lines, request) && !session.finished()) {
    try {
      session.reply_to(request);
    } catch (const batfill::adapter::RequestError&) {
      break;  // serve exits here
    }
  }
  return 0;
}
