#include "batfill/adapter/options_json.hpp"

#include <rapidjson/document.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "batfill/common/text.hpp"
#include "batfill/core/machine_pool.hpp"
#include "batfill/core/policy_registry.hpp"
#include "batfill/core/queue_order.hpp"

namespace batfill::adapter {
namespace {

const std::vector<std::string>& option_keys() {
  static const std::vector<std::string> keys = {"backfill", "order", "alloc"};
  return keys;
}

// Checks the name where it is given, so a typo fails before any simulation starts.
void set_checked(SchedulingOverrides& overrides, const std::string& key, const std::string& value) {
  if (key == "backfill") {
    find_policy(value);
    overrides.backfill = value;
  } else if (key == "order") {
    parse_queue_order(value);
    overrides.order = value;
  } else {
    parse_allocation_rule(value);
    overrides.alloc = value;
  }
}

}  // namespace

SchedulingOverrides parse_options_json(const std::string& text) {
  rapidjson::Document document;
  document.Parse(text.c_str(), text.size());
  if (document.HasParseError() || !document.IsObject()) {
    throw std::invalid_argument("must be a JSON object of batfill options, got " + quoted(text));
  }
  SchedulingOverrides overrides;
  for (const auto& member : document.GetObject()) {
    const std::string key = member.name.GetString();
    if (std::find(option_keys().begin(), option_keys().end(), key) == option_keys().end()) {
      throw std::invalid_argument("unknown key " + quoted(key) + " (valid: " + join(option_keys()) +
                                  ")");
    }
    if (!member.value.IsString()) throw std::invalid_argument(quoted(key) + " must be a string");
    set_checked(overrides, key, member.value.GetString());
  }
  return overrides;
}

}  // namespace batfill::adapter
