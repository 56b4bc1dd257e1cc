#pragma once
// The JSON object of batfill settings, {"backfill": P, "order": O, "alloc": A, "predictor": R,
// "predictor_options": {...}, "corrector": C, "backfill_order": B, "queues": Q, "batching": E}
// or any subset of it. Batsim's
// config.sched-config and batsched's --variant_options carry the same object, so both are read here
// and fail the same way.

#include <memory>
#include <optional>
#include <string>

#include "batfill/core/prediction.hpp"
#include "batfill/core/queue_config.hpp"

namespace batfill::adapter {

// Each member is set only when its key is present; every name has been checked.
struct SchedulingOverrides {
  std::optional<std::string> backfill;   // a registered policy name
  std::optional<std::string> order;      // a queue order name
  std::optional<std::string> alloc;      // an allocation rule name
  std::optional<std::string> predictor;  // a registered predictor name
  std::optional<PredictorOptions> predictor_options;
  std::optional<std::string> corrector;       // a registered corrector name, or "none"
  std::optional<std::string> backfill_order;  // "queue" or "sjbf"
  // Key `queues`: the queue configuration object, or the path of a file holding it.
  std::shared_ptr<const QueueConfig> queues;
  std::optional<std::string> batching;  // "instant" or "per-event"
};

// Throws std::invalid_argument for text that is not a JSON object, an unknown key (naming it and
// the valid ones), a value that is not a string, or a name the core does not know.
SchedulingOverrides parse_options_json(const std::string& text);

// A predictor's options as a JSON object of numbers or strings ({"eta": 5000}), as given to
// --predictor-options and the key predictor_options; throws std::invalid_argument otherwise.
PredictorOptions parse_predictor_options(const std::string& text);

// The queue configuration (docs/semantics.md §2.10) of JSON text {"queues": [...], "default":
// name}; `source` names the file in errors. Throws std::invalid_argument naming the key.
QueueConfig parse_queue_config(const std::string& text, const std::string& source);
// The same, read from a file (--queues FILE).
QueueConfig read_queue_config(const std::string& path);

// The corrector a name selects: "" for "none", else the registered name (checked).
std::string corrector_setting(const std::string& name);

}  // namespace batfill::adapter
