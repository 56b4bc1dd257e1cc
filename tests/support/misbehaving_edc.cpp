// A Batsim 5 EDC library that misbehaves on purpose, for the tests of what batfill does when a
// foreign library fails. Its init string says how:
//   "crash@K"      segfaults inside batsim_edc_take_decisions when given message #K
//   "slow:MARKER"  sleeps 20 ms in each call and decides nothing; creates the file MARKER at
//                  message #1, so a test knows the simulation is running
//   "script\n" then lines "TRIGGER\tEVENTS": decides EVENTS (comma-separated batprotocol event
//                  objects, NOW standing for the request's time) in reply to the first message
//                  holding the text TRIGGER, each line once
// Otherwise it decides nothing. It speaks batprotocol's JSON format.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::string mode;
long message = 0;
std::string reply;

const char* const kHello =
    R"({"now":0.0,"events":[{"timestamp":0.0,"event_type":"EDCHelloEvent","event":{)"
    R"("batprotocol_version":"0.1.0","decision_component_name":"misbehaving",)"
    R"("decision_component_version":"1","decision_component_commit":""}}]})";

std::uint8_t hand_back(const std::string& text, std::uint8_t** data, std::uint32_t* size) {
  reply = text;
  *data = reinterpret_cast<std::uint8_t*>(reply.data());
  *size = static_cast<std::uint32_t>(reply.size() + 1);
  return 0;
}

// The request's `now`, for a reply without events.
std::string now_of(const char* request) {
  const char* now = std::strstr(request, "\"now\":");
  if (now == nullptr) return "0.0";
  now += 6;
  return std::string(now, std::strcspn(now, ",}"));
}

struct ScriptLine {
  std::string trigger;
  std::string events;
  bool done = false;
};
std::vector<ScriptLine> script;

void read_script() {
  std::size_t at = mode.find('\n');
  while (at != std::string::npos && at + 1 < mode.size()) {
    const std::size_t end = mode.find('\n', at + 1);
    const std::string line = mode.substr(at + 1, end == std::string::npos ? end : end - at - 1);
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos) script.push_back({line.substr(0, tab), line.substr(tab + 1)});
    at = end;
  }
}

// The events the script decides in reply to `request`, "" for none.
std::string scripted_events(const char* request, const std::string& now) {
  std::string events;
  for (ScriptLine& line : script) {
    if (line.done || std::strstr(request, line.trigger.c_str()) == nullptr) continue;
    line.done = true;
    std::string decided = line.events;
    for (std::size_t at; (at = decided.find("NOW")) != std::string::npos;) {
      decided.replace(at, 3, now);
    }
    events += (events.empty() ? "" : ",") + decided;
  }
  return events;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) std::uint8_t batsim_edc_init(const std::uint8_t* data,
                                                                    std::uint32_t size,
                                                                    std::uint32_t* flags,
                                                                    std::uint8_t** reply_data,
                                                                    std::uint32_t* reply_size) {
  mode.assign(reinterpret_cast<const char*>(data), size);
  if (mode.rfind("script\n", 0) == 0) read_script();
  *flags = 0x2;  // JSON
  return hand_back(kHello, reply_data, reply_size);
}

__attribute__((visibility("default"))) std::uint8_t batsim_edc_take_decisions(
    const std::uint8_t* what_happened, std::uint32_t, std::uint8_t** decisions,
    std::uint32_t* decisions_size) {
  const long index = message++;
  if (mode == "crash@" + std::to_string(index)) {
    volatile int* nowhere = nullptr;
    *nowhere = 1;
  }
  if (mode.rfind("slow:", 0) == 0) {
    usleep(20000);
    if (index == 1) std::fclose(std::fopen(mode.substr(5).c_str(), "w"));
  }
  const char* request = reinterpret_cast<const char*>(what_happened);
  const std::string now = now_of(request);
  return hand_back(R"({"now":)" + now + R"(,"events":[)" + scripted_events(request, now) + "]}",
                   decisions, decisions_size);
}

__attribute__((visibility("default"))) std::uint8_t batsim_edc_deinit() { return 0; }

}  // extern "C"
