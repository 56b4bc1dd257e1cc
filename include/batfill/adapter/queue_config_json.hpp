#pragma once
// The queue configuration (docs/semantics.md#queues---queues) as JSON, {"queues": [...], "default":
// name}: the value of the setting `queues` (settings.hpp), given inline or as the path of a file.

#include <rapidjson/document.h>

#include <string>

#include "batfill/core/queue_config.hpp"

namespace batfill::adapter {

// Throws std::invalid_argument naming the key and the queue ("queues[1].priority ...").
QueueConfig queue_config_of(const rapidjson::Value& value);

// The same, read from a file; the message names the file first.
QueueConfig read_queue_config(const std::string& path);

}  // namespace batfill::adapter
