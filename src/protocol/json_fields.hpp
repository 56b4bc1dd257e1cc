#pragma once
// The JSON helpers both Batsim codecs share (codec.cpp for Batsim 4, batsim5_codec.cpp for
// Batsim 5): reading the members of a message with errors that name the event and the field,
// and writing times and strings exactly. Private to the protocol layer.

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <charconv>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "batfill/common/json_depth.hpp"
#include "batfill/common/json_document.hpp"
#include "batfill/common/machine_set.hpp"
#include "batfill/common/time.hpp"
#include "batfill/protocol/codec.hpp"
#include "batfill/protocol/messages.hpp"

namespace batfill::protocol::json_fields {

using Value = rapidjson::Value;
// Validating writes: a string that is not UTF-8 must fail here, never reach Batsim as a message
// that is not JSON (docs/protocol.md#what-a-request-must-satisfy).
using Writer = rapidjson::Writer<rapidjson::StringBuffer, rapidjson::UTF8<>, rapidjson::UTF8<>,
                                 rapidjson::CrtAllocator, rapidjson::kWriteValidateEncodingFlag>;

// ---- Parsing ---------------------------------------------------------------------------------

// A document whose parse stack, too, comes from a memory pool (see parse_message).
using RequestDocument =
    rapidjson::GenericDocument<rapidjson::UTF8<>, rapidjson::MemoryPoolAllocator<>,
                               rapidjson::MemoryPoolAllocator<>>;

inline std::string json_text(const Value& value) {
  rapidjson::StringBuffer buffer;
  Writer writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// The event a field belongs to, spelled out only for an error, so that valid messages never pay
// for the text.
struct Where {
  std::optional<rapidjson::SizeType> event;  // none: the envelope
  std::string_view type;                     // the event's type, once read
  std::string text() const {
    if (!event) return "";
    const std::string at = "event " + std::to_string(*event);
    return type.empty() ? at : at + " (" + std::string(type) + ")";
  }
};

// The members of one JSON object, read with errors that name where they come from:
// `where` the event ("event 2 (JOB_COMPLETED)", nothing for the envelope), `path` the enclosing
// keys.
class Fields {
 public:
  Fields(const Value& object, const Where& where, std::string path = "")
      : object_(object), where_(&where), path_(std::move(path)) {}

  // Throws a ProtocolError for `what` in this object's event, about `field` ("" for none).
  [[noreturn]] void fail(const std::string& what, const std::string& field = "") const {
    ProtocolError error(what, field);
    if (where_->event) error.in_event(*where_->event, std::string(where_->type));
    throw error;
  }
  // The same about member `key` of this object.
  [[noreturn]] void fail_at(const char* key, const std::string& what) const {
    fail(what, path_ + key);
  }
  std::string name(const char* key) const { return "'" + path_ + key + "'"; }

  const Value* find(const char* key) const {
    const auto it = object_.FindMember(key);
    return it == object_.MemberEnd() ? nullptr : &it->value;
  }

  const Value& require(const char* key, const char* kind) const {
    const Value* value = find(key);
    if (value == nullptr) fail_at(key, std::string("missing ") + kind + " field " + name(key));
    return *value;
  }

  std::string string(const char* key) const {
    const Value& value = require(key, "string");
    if (!value.IsString())
      fail_at(key, "field " + name(key) + " must be a string, got " + json_text(value));
    // With its length: "\u0000" inside an id is a character like any other.
    return std::string(value.GetString(), value.GetStringLength());
  }

  // The same without a copy, valid while the document lives.
  std::string_view string_view(const char* key) const {
    const Value& value = require(key, "string");
    if (!value.IsString()) string(key);  // fails naming the field
    return {value.GetString(), value.GetStringLength()};
  }

  std::optional<std::string> optional_string(const char* key) const {
    if (find(key) == nullptr) return std::nullopt;
    return string(key);
  }

  Time time(const char* key) const { return to_time(key, require(key, "number")); }

  // A number that is not a time (a fraction, a ratio).
  double number(const char* key) const {
    const Value& value = require(key, "number");
    if (!value.IsNumber())
      fail_at(key, "field " + name(key) + " must be a number, got " + json_text(value));
    return value.GetDouble();
  }

  std::optional<Time> optional_time(const char* key) const {
    const Value* value = find(key);
    if (value == nullptr) return std::nullopt;
    return to_time(key, *value);
  }

  // The rules both codecs share (docs/protocol.md "JOB_SUBMITTED", "Quirks of the real
  // 5.0.0-rc2"):

  // A job's walltime: absent, null or -1 s mean no limit (Batsim 4 sends -1, Batsim 5 leaves
  // the field out when the workload's is not > 0); any other value must be > 0.
  Time walltime(const char* key) const {
    const Value* value = find(key);
    if (value == nullptr || value->IsNull()) return kNoTimeLimit;
    const Time limit = to_time(key, *value);
    if (limit == from_seconds(-1)) return kNoTimeLimit;
    if (limit <= 0) {
      fail_at(key, "field " + name(key) + " must be > 0, or -1 or absent for no limit, got " +
                       format_seconds(limit));
    }
    return limit;
  }

  // A platform's count of compute machines, at most batfill's limit.
  int machine_count(const char* key) const {
    const int count = integer(key);
    refuse_negative(key, count);
    if (count > kMaxMachines) {
      fail_at(key, "field " + name(key) + " " + std::to_string(count) +
                       " is more than batfill's limit of " + std::to_string(kMaxMachines) +
                       " machines");
    }
    return count;
  }

  int integer(const char* key) const {
    const Value& value = require(key, "integer");
    if (value.IsInt()) return value.GetInt();
    // Tolerate 4.0 for 4: Python-written workloads sometimes carry integral floats.
    if (value.IsNumber() && std::floor(value.GetDouble()) == value.GetDouble()) {
      const double d = value.GetDouble();
      if (d >= INT_MIN && d <= INT_MAX) return static_cast<int>(d);
      fail_at(key, "field " + name(key) + " must be an integer from " + std::to_string(INT_MIN) +
                       " to " + std::to_string(INT_MAX) + ", got " + json_text(value));
    }
    fail_at(key, "field " + name(key) + " must be an integer, got " + json_text(value));
  }

  int integer_or(const char* key, int fallback) const {
    return find(key) == nullptr ? fallback : integer(key);
  }

  // An unsigned field (batprotocol's uint32: counts and ids), held in an int.
  int count_or(const char* key, int fallback) const {
    const int value = integer_or(key, fallback);
    refuse_negative(key, value);
    return value;
  }
  void refuse_negative(const char* key, int value) const {
    if (value < 0)
      fail_at(key, "field " + name(key) + " must be >= 0, got " + std::to_string(value));
  }

  MachineSet machines(const char* key) const {
    const std::string_view text = string_view(key);
    try {
      return parse_machine_set(text);
    } catch (const std::invalid_argument& e) {
      fail_at(key, "field " + name(key) + " is not an interval set: " + e.what());
    }
  }

  std::vector<std::string> strings(const char* key) const {
    std::vector<std::string> values;
    for (const Value& value : array(key).GetArray()) {
      if (!value.IsString()) {
        fail_at(key, "field " + name(key) + " must hold strings, got " + json_text(value));
      }
      values.emplace_back(value.GetString(), value.GetStringLength());
    }
    return values;
  }

  Fields object(const char* key) const {
    const Value& value = require(key, "object");
    if (!value.IsObject())
      fail_at(key, "field " + name(key) + " must be an object, got " + json_text(value));
    return Fields(value, *where_, path_ + key + ".");
  }

  const Value& array(const char* key) const {
    const Value& value = require(key, "array");
    if (!value.IsArray())
      fail_at(key, "field " + name(key) + " must be an array, got " + json_text(value));
    return value;
  }

  const Value& value() const { return object_; }
  const Where& where() const { return *where_; }
  const std::string& path() const { return path_; }

 private:
  Time to_time(const char* key, const Value& value) const {
    if (!value.IsNumber())
      fail_at(key, "field " + name(key) + " must be a number, got " + json_text(value));
    try {
      return from_fractional_seconds(value.GetDouble());
    } catch (const std::out_of_range& e) {
      fail_at(key, "field " + name(key) + ": " + e.what());
    }
  }

  const Value& object_;
  const Where* where_;  // outlives the fields, which live within one event's parse
  std::string path_;
};

inline void write_time(Writer& writer, Time t) {
  if (t == kNever) throw std::invalid_argument("cannot write the time 'never' to Batsim");
  const std::string text = format_seconds(t);
  writer.RawValue(text.data(), text.size(), rapidjson::kNumberType);
}

inline void write_string(Writer& writer, const char* key, const std::string& value) {
  writer.Key(key);
  if (!writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()))) {
    throw std::invalid_argument(std::string("field '") + key + "' is not valid UTF-8");
  }
}

// `key` and an array of `values` (job ids).
inline void write_strings(Writer& writer, const char* key, const std::vector<std::string>& values) {
  writer.Key(key);
  writer.StartArray();
  for (const std::string& value : values) {
    if (!writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()))) {
      throw std::invalid_argument(std::string("field '") + key + "' is not valid UTF-8");
    }
  }
  writer.EndArray();
}

inline void write_raw_object(Writer& writer, const std::string& json, const char* what) {
  rapidjson::Document document;
  if (parse_json(document, json.empty() ? "{}" : json).IsError() || !document.IsObject()) {
    throw std::invalid_argument(std::string(what) + " is not a JSON object: " + json);
  }
  document.Accept(writer);
}

// The user fields batfill reads out of a JSON object of user fields (messages.hpp): the
// object's other members are not batfill's to judge, so nothing here fails.
inline TypedUserFields read_user_fields(const Value& fields) {
  TypedUserFields typed;
  if (const auto user = fields.FindMember("user");
      user != fields.MemberEnd() && user->value.IsInt()) {
    typed.user = user->value.GetInt();
  }
  if (const auto queue = fields.FindMember("queue"); queue != fields.MemberEnd()) {
    if (queue->value.IsString()) typed.queue = queue->value.GetString();
    if (queue->value.IsInt64()) typed.queue = std::to_string(queue->value.GetInt64());
  }
  return typed;
}

// Typed user fields as Batsim writes them: numbers when they are numbers.
inline void write_typed_user_fields(Writer& writer, const TypedUserFields& fields) {
  if (fields.user >= 0) {
    writer.Key("user");
    writer.Int(fields.user);
  }
  if (fields.queue.empty()) return;
  writer.Key("queue");
  std::int64_t number = 0;
  const std::string& queue = fields.queue;
  const char* end = queue.data() + queue.size();
  const auto [stop, error] = std::from_chars(queue.data(), end, number);
  if (error == std::errc() && stop == end && std::to_string(number) == queue) {
    writer.Int64(number);
  } else if (!writer.String(queue.data(), static_cast<rapidjson::SizeType>(queue.size()))) {
    throw std::invalid_argument("field 'queue' is not valid UTF-8");
  }
}

// Parses `json` and hands `read` the document and the parse result; the document must be done
// with on return. Its values and parse stack live in buffers of this call: a text of a few
// hundred bytes, as most requests and every job's user fields are, then allocates nothing for
// its document (docs/protocol.md#what-a-message-costs); a larger one continues in allocated chunks.
// The buffers are on the stack: code that runs in a SimGrid actor, whose stack a platform may set
// as small as 16 KiB (`contexts/stack-size`), asks for small ones.
template <std::size_t kValueBytes = (16 << 10), std::size_t kStackBytes = (4 << 10), typename Read>
auto with_pooled_document(std::string_view json, Read&& read) {
  alignas(std::max_align_t) char value_memory[kValueBytes];
  alignas(std::max_align_t) char stack_memory[kStackBytes];
  rapidjson::MemoryPoolAllocator<> values(value_memory, sizeof value_memory);
  rapidjson::MemoryPoolAllocator<> stack(stack_memory, sizeof stack_memory);
  RequestDocument document(&values, sizeof stack_memory / 2, &stack);
  const rapidjson::ParseResult parsed = parse_json(document, json);
  return read(static_cast<const Value&>(document), parsed);
}

// Parses one message text and hands its document to `read`, which must be done with it on
// return. Throws ProtocolError for text that is not JSON, or nested too deep.
template <typename Read>
auto read_document(std::string_view json, Read&& read) {
  if (const std::optional<std::size_t> offset = find_excess_json_nesting(json)) {
    throw ProtocolError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                        " levels at offset " + std::to_string(*offset));
  }
  return with_pooled_document(json, [&](const Value& document, rapidjson::ParseResult parsed) {
    if (parsed.IsError()) {
      throw ProtocolError("malformed JSON at offset " + std::to_string(parsed.Offset()) + ": " +
                          rapidjson::GetParseError_En(parsed.Code()));
    }
    if (!document.IsObject()) throw ProtocolError("a message must be a JSON object");
    return read(document);
  });
}

}  // namespace batfill::protocol::json_fields
