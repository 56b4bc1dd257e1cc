#pragma once
// The policies batfill knows, by name. Adding a policy: one file in src/core/policies/ and one
// line in src/core/policy_registry.cpp.

#include <memory>
#include <string>
#include <vector>

#include "batfill/core/policy.hpp"

namespace batfill {

struct PolicyInfo {
  std::string name;         // as given to --backfill
  std::string description;  // one line for --help and error messages
  std::unique_ptr<Policy> (*make)();
};

const std::vector<PolicyInfo>& registered_policies();

std::vector<std::string> policy_names();

// Both throw std::invalid_argument listing the registered names when `name` is unknown.
const PolicyInfo& find_policy(const std::string& name);
std::unique_ptr<Policy> make_policy(const std::string& name);

}  // namespace batfill
