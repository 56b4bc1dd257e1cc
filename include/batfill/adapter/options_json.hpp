#pragma once
// The JSON object of batfill settings, {"backfill": P, "order": O, "alloc": A} or any subset of
// it. Batsim's config.sched-config and batsched's --variant_options carry the same object, so
// both are read here and fail the same way.

#include <optional>
#include <string>

namespace batfill::adapter {

// Each member is set only when its key is present; every name has been checked.
struct SchedulingOverrides {
  std::optional<std::string> backfill;  // a registered policy name
  std::optional<std::string> order;     // a queue order name
  std::optional<std::string> alloc;     // an allocation rule name
};

// Throws std::invalid_argument for text that is not a JSON object, an unknown key (naming it and
// the valid ones), a value that is not a string, or a name the core does not know.
SchedulingOverrides parse_options_json(const std::string& text);

}  // namespace batfill::adapter
