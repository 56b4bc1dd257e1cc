#include "batfill/adapter/options_json.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "batfill/adapter/event_batching.hpp"
#include "batfill/common/json_document.hpp"
#include "batfill/common/text.hpp"
#include "batfill/core/machine_pool.hpp"
#include "batfill/core/policy_registry.hpp"
#include "batfill/core/prediction.hpp"
#include "batfill/core/queue_order.hpp"

namespace batfill::adapter {
namespace {

const std::vector<std::string>& option_keys() {
  static const std::vector<std::string> keys = {
      "backfill",  "order",          "alloc",  "predictor", "predictor_options",
      "corrector", "backfill_order", "queues", "batching"};
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
  } else if (key == "batching") {
    parse_event_batching(value);
    overrides.batching = value;
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
      throw std::invalid_argument("predictor option " + quoted(key) +
                                  " must be a number or a string");
    }
  }
  return options;
}

// The queue keys and how each is read.
const std::vector<std::string>& queue_keys() {
  static const std::vector<std::string> keys = {"name",         "ids",
                                                "priority",     "backfill",
                                                "slot_reserve", "max_reserve_time",
                                                "slot_limit",   "user_slot_limit"};
  return keys;
}

int positive_int(const rapidjson::Value& value, const std::string& where) {
  if (!value.IsInt() || value.GetInt() <= 0) {
    throw std::invalid_argument(where + " must be a positive integer");
  }
  return value.GetInt();
}

bool boolean(const rapidjson::Value& value, const std::string& where) {
  if (!value.IsBool()) throw std::invalid_argument(where + " must be true or false");
  return value.GetBool();
}

// A queue id: SWF field 15 is a number, a Batsim job's `queue` a number or a name.
std::string queue_id(const rapidjson::Value& value, const std::string& where) {
  if (value.IsString()) return value.GetString();
  if (value.IsInt64()) return std::to_string(value.GetInt64());
  throw std::invalid_argument(where + " must hold integers or strings");
}

QueueSpec queue_spec(const rapidjson::Value& value, const std::string& where) {
  if (!value.IsObject()) throw std::invalid_argument(where + " must be a JSON object");
  QueueSpec queue;
  for (const auto& member : value.GetObject()) {
    const std::string key = member.name.GetString();
    const std::string at = where + "." + key;
    const rapidjson::Value& v = member.value;
    if (key == "name") {
      if (!v.IsString() || v.GetStringLength() == 0) {
        throw std::invalid_argument(at + " must be a non-empty string");
      }
      queue.name = v.GetString();
    } else if (key == "ids") {
      if (!v.IsArray()) throw std::invalid_argument(at + " must be an array");
      for (const auto& id : v.GetArray()) queue.ids.push_back(queue_id(id, at));
    } else if (key == "priority") {
      if (!v.IsInt()) throw std::invalid_argument(at + " must be an integer");
      queue.priority = v.GetInt();
    } else if (key == "backfill") {
      queue.backfill = boolean(v, at);
    } else if (key == "slot_reserve") {
      queue.slot_reserve = boolean(v, at);
    } else if (key == "max_reserve_time") {
      if (!v.IsNumber() || v.GetDouble() <= 0) {
        throw std::invalid_argument(at + " must be a positive number of seconds");
      }
      queue.max_reserve_time = from_fractional_seconds(v.GetDouble());
    } else if (key == "slot_limit") {
      queue.slot_limit = positive_int(v, at);
    } else if (key == "user_slot_limit") {
      queue.user_slot_limit = positive_int(v, at);
    } else {
      throw std::invalid_argument("unknown key " + quoted(at) + " (valid: " + join(queue_keys()) +
                                  ")");
    }
  }
  if (queue.name.empty()) throw std::invalid_argument(where + " has no 'name'");
  return queue;
}

QueueConfig queue_config_of(const rapidjson::Value& value, const std::string& source) {
  if (!value.IsObject()) throw std::invalid_argument(source + ": must be a JSON object");
  QueueConfig config;
  for (const auto& member : value.GetObject()) {
    const std::string key = member.name.GetString();
    if (key == "queues") {
      if (!member.value.IsArray())
        throw std::invalid_argument(source + ": 'queues' must be an array");
      std::size_t index = 0;
      for (const auto& queue : member.value.GetArray()) {
        config.queues.push_back(
            queue_spec(queue, source + ": queues[" + std::to_string(index++) + "]"));
      }
    } else if (key == "default") {
      if (!member.value.IsString())
        throw std::invalid_argument(source + ": 'default' must be a string");
      config.default_queue = member.value.GetString();
    } else {
      throw std::invalid_argument(source + ": unknown key " + quoted(key) +
                                  " (valid: queues, default)");
    }
  }
  try {
    config.validate();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(source + ": " + e.what());
  }
  return config;
}

}  // namespace

QueueConfig parse_queue_config(const std::string& text, const std::string& source) {
  rapidjson::Document document;
  if (parse_json(document, text).IsError())
    throw std::invalid_argument(source + ": is not valid JSON");
  return queue_config_of(document, source);
}

QueueConfig read_queue_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read the queue configuration " + quoted(path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_queue_config(text.str(), quoted(path));
}

std::string corrector_setting(const std::string& name) {
  if (name == "none") return "";
  find_corrector(name);
  return name;
}

PredictorOptions parse_predictor_options(const std::string& text) {
  rapidjson::Document document;
  if (parse_json(document, text).IsError()) {
    throw std::invalid_argument("predictor options must be a JSON object, got " + quoted(text));
  }
  return predictor_options_of(document);
}

SchedulingOverrides parse_options_json(const std::string& text) {
  rapidjson::Document document;
  if (parse_json(document, text).IsError() || !document.IsObject()) {
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
    if (key == "queues") {  // the configuration itself, or the path of its file
      overrides.queues = std::make_shared<const QueueConfig>(
          member.value.IsString() ? read_queue_config(member.value.GetString())
                                  : queue_config_of(member.value, "key 'queues'"));
      continue;
    }
    if (!member.value.IsString()) throw std::invalid_argument(quoted(key) + " must be a string");
    set_checked(overrides, key, member.value.GetString());
  }
  return overrides;
}

}  // namespace batfill::adapter
