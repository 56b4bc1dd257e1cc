#include "batfill/protocol/log.hpp"

#include <stdexcept>

namespace batfill::protocol {

Verbosity parse_verbosity(const std::string& name) {
  if (name == "quiet") return Verbosity::kQuiet;
  if (name == "info") return Verbosity::kInfo;
  if (name == "debug") return Verbosity::kDebug;
  throw std::invalid_argument("unknown verbosity '" + name + "' (valid: quiet, info, debug)");
}

}  // namespace batfill::protocol
