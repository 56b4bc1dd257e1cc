#include "external_events.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "batfill/common/json_document.hpp"
#include "batfill/common/machine_set.hpp"
#include "batfill/common/text.hpp"

namespace batfill::simulator {
namespace {

// Batsim's names of the machine events in its event files.
constexpr const char* kUnavailable = "machine_unavailable";
constexpr const char* kAvailable = "machine_available";

[[noreturn]] void fail(const std::string& origin, const std::string& what) {
  throw std::runtime_error(origin + ": " + what);
}

std::string compact_json(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

ExternalEvent read_event(const std::string& line, const std::string& origin, bool forward_unknown) {
  rapidjson::Document document;
  const rapidjson::ParseResult parsed = parse_json(document, line);
  if (parsed.IsError()) fail(origin, json_error_text(parsed, line));
  if (!document.IsObject()) fail(origin, "an event must be a JSON object");
  const auto type = document.FindMember("type");
  if (type == document.MemberEnd() || !type->value.IsString()) {
    fail(origin, "the event has no string 'type'");
  }
  const auto timestamp = document.FindMember("timestamp");
  if (timestamp == document.MemberEnd() || !timestamp->value.IsNumber() ||
      timestamp->value.GetDouble() < 0) {
    fail(origin, "the event has no number 'timestamp' >= 0");
  }
  ExternalEvent event;
  event.origin = origin;
  try {
    event.time = from_fractional_seconds(timestamp->value.GetDouble());
  } catch (const std::out_of_range& e) {
    fail(origin, std::string("'timestamp': ") + e.what());
  }
  const std::string name(type->value.GetString(), type->value.GetStringLength());
  if (name == kUnavailable || name == kAvailable) {
    const auto resources = document.FindMember("resources");
    if (resources == document.MemberEnd() || !resources->value.IsString()) {
      fail(origin, "a " + name + " event needs a string 'resources'");
    }
    try {
      event.notify.resources = parse_machine_set(resources->value.GetString());
    } catch (const std::invalid_argument& e) {
      fail(origin, "'resources' is not an interval set: " + std::string(e.what()));
    }
    event.notify.kind = name == kUnavailable ? protocol::Notification::kMachinesUnavailable
                                             : protocol::Notification::kMachinesAvailable;
    return event;
  }
  if (!forward_unknown) {
    fail(origin, "event type " + quoted(name) + " is none of " + kUnavailable + " and " +
                     kAvailable +
                     "; Batsim forwards other events only with "
                     "--forward-unknown-events");
  }
  event.notify.kind = protocol::Notification::kOther;
  event.notify.other = name;
  event.notify.event_json = compact_json(document);
  return event;
}

}  // namespace

std::vector<ExternalEvent> read_external_events(const std::string& path, bool forward_unknown) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the events file " + quoted(path));
  std::vector<ExternalEvent> events;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    events.push_back(read_event(line, path + ":" + std::to_string(number), forward_unknown));
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const ExternalEvent& a, const ExternalEvent& b) { return a.time < b.time; });
  return events;
}

}  // namespace batfill::simulator
