#include "batfill/adapter/log.hpp"

#include <stdexcept>

namespace batfill::adapter {

Verbosity parse_verbosity(const std::string& name) {
  if (name == "quiet") return Verbosity::kQuiet;
  if (name == "info") return Verbosity::kInfo;
  if (name == "debug") return Verbosity::kDebug;
  throw std::invalid_argument("unknown verbosity '" + name + "' (valid: quiet, info, debug)");
}

}  // namespace batfill::adapter
