#include "batfill/adapter/options_json.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "batfill/common/text.hpp"
#include "batfill/core/machine_pool.hpp"
#include "batfill/core/policy_registry.hpp"
#include "batfill/core/prediction.hpp"
#include "batfill/core/queue_order.hpp"

namespace batfill::adapter {
namespace {

const std::vector<std::string>& option_keys() {
  static const std::vector<std::string> keys = {"backfill",  "order",     "alloc",
                                                "predictor", "predictor_options",
                                                "corrector", "backfill_order"};
  return keys;
}

// Checks the name where it is given, so a typo fails before any simulation starts.
void set_checked(SchedulingOverrides& overrides, const std::string& key, const std::string& value) {
  if (key == "backfill") {
    find_policy(value);
    overrides.backfill = value;
  } else if (key == "predictor") {
    find_predictor(value);
    overrides.predictor = value;
  } else if (key == "corrector") {
    corrector_setting(value);
    overrides.corrector = value;
  } else if (key == "backfill_order") {
    parse_backfill_order(value);
    overrides.backfill_order = value;
  } else if (key == "order") {
    parse_queue_order(value);
    overrides.order = value;
  } else {
    parse_allocation_rule(value);
    overrides.alloc = value;
  }
}

PredictorOptions predictor_options_of(const rapidjson::Value& object) {
  if (!object.IsObject()) throw std::invalid_argument("predictor options must be a JSON object");
  PredictorOptions options;
  for (const auto& member : object.GetObject()) {
    const std::string key = member.name.GetString();
    if (member.value.IsString()) {
      options[key] = member.value.GetString();
    } else if (member.value.IsNumber()) {
      rapidjson::StringBuffer text;  // the shortest text that reads back as the same number
      rapidjson::Writer<rapidjson::StringBuffer> writer(text);
      member.value.Accept(writer);
      options[key] = text.GetString();
    } else {
      throw std::invalid_argument("predictor option " + quoted(key) + " must be a number or a string");
    }
  }
  return options;
}

}  // namespace

std::string corrector_setting(const std::string& name) {
  if (name == "none") return "";
  find_corrector(name);
  return name;
}

PredictorOptions parse_predictor_options(const std::string& text) {
  rapidjson::Document document;
  document.Parse(text.c_str(), text.size());
  if (document.HasParseError()) {
    throw std::invalid_argument("predictor options must be a JSON object, got " + quoted(text));
  }
  return predictor_options_of(document);
}

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
    if (key == "predictor_options") {
      overrides.predictor_options = predictor_options_of(member.value);
      continue;
    }
    if (!member.value.IsString()) throw std::invalid_argument(quoted(key) + " must be a string");
    set_checked(overrides, key, member.value.GetString());
  }
  return overrides;
}

}  // namespace batfill::adapter
