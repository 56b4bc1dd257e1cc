#include "batfill/adapter/queue_config_json.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "batfill/common/json_document.hpp"
#include "batfill/common/text.hpp"
#include "batfill/common/time.hpp"

namespace batfill::adapter {
namespace {

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

std::vector<QueueSpec> queue_specs(const rapidjson::Value& value) {
  if (!value.IsArray()) throw std::invalid_argument("'queues' must be an array");
  std::vector<QueueSpec> queues;
  for (const auto& queue : value.GetArray()) {
    queues.push_back(queue_spec(queue, "queues[" + std::to_string(queues.size()) + "]"));
  }
  return queues;
}

}  // namespace

QueueConfig queue_config_of(const rapidjson::Value& value) {
  if (!value.IsObject()) {
    throw std::invalid_argument("the queue configuration must be a JSON object");
  }
  QueueConfig config;
  for (const auto& member : value.GetObject()) {
    const std::string key = member.name.GetString();
    if (key == "queues") {
      config.queues = queue_specs(member.value);
    } else if (key == "default") {
      if (!member.value.IsString()) throw std::invalid_argument("'default' must be a string");
      config.default_queue = member.value.GetString();
    } else {
      throw std::invalid_argument("unknown key " + quoted(key) + " (valid: queues, default)");
    }
  }
  config.validate();
  return config;
}

QueueConfig read_queue_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read the queue configuration " + quoted(path));
  std::ostringstream text;
  text << in.rdbuf();
  rapidjson::Document document;
  if (parse_json(document, text.str()).IsError()) {
    throw std::invalid_argument(quoted(path) + ": is not valid JSON");
  }
  try {
    return queue_config_of(document);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(quoted(path) + ": " + e.what());
  }
}

}  // namespace batfill::adapter
