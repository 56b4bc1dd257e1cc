// A Batsim 5 EDC library that misbehaves on purpose, for the tests of what batfill does when a
// foreign library fails. Its init string says how:
//   "crash@K"      segfaults inside batsim_edc_take_decisions when given message #K
//   "slow:MARKER"  sleeps 20 ms in each call and decides nothing; creates the file MARKER at
//                  message #1, so a test knows the simulation is running
// Otherwise it decides nothing. It speaks batprotocol's JSON format.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

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

}  // namespace

extern "C" {

__attribute__((visibility("default"))) std::uint8_t batsim_edc_init(
    const std::uint8_t* data, std::uint32_t size, std::uint32_t* flags, std::uint8_t** reply_data,
    std::uint32_t* reply_size) {
  mode.assign(reinterpret_cast<const char*>(data), size);
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
  const std::string now = now_of(reinterpret_cast<const char*>(what_happened));
  return hand_back(R"({"now":)" + now + R"(,"events":[]})", decisions, decisions_size);
}

__attribute__((visibility("default"))) std::uint8_t batsim_edc_deinit() { return 0; }

}  // extern "C"
