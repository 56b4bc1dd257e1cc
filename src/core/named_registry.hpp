#pragma once
// Lookups shared by the registries of policies, predictors and correctors: each entry has a
// `name`, and an unknown name is an error listing the valid ones. Private to src/core.

#include <stdexcept>
#include <string>
#include <vector>

#include "batfill/common/text.hpp"

namespace batfill::detail {

template <class Info>
std::vector<std::string> names_of(const std::vector<Info>& entries) {
  std::vector<std::string> names;
  for (const Info& entry : entries) names.push_back(entry.name);
  return names;
}

// `what` names the kind in the error, e.g. "backfilling policy".
template <class Info>
const Info& find_named(const std::vector<Info>& entries, const std::string& name,
                       const char* what) {
  for (const Info& entry : entries) {
    if (entry.name == name) return entry;
  }
  throw std::invalid_argument("unknown " + std::string(what) + " " + quoted(name) +
                              " (valid: " + join(names_of(entries)) + ")");
}

}  // namespace batfill::detail
