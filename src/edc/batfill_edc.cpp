// libbatfill_edc.so: batfill as a Batsim 5 External Decision Component that Batsim loads with
// dlopen (docs/protocol.md#the-edc-library). Only the three C functions of Batsim's EDC API are
// exported (src/edc/exports.map). Nothing throws across the C boundary and nothing exits: every
// failure is a non-zero return and one line on stderr naming the key or the event.

#include <cstdint>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>

#include "batfill/adapter/batsim5_session.hpp"
#include "batfill/protocol/batsim5_codec.hpp"

namespace {

using batfill::adapter::Batsim5Session;

// One decision component per loaded library: Batsim calls init once, then take_decisions.
std::unique_ptr<Batsim5Session> session;
// The last reply, a NUL-terminated C string as batprotocol's JSON format wants; valid until the
// next call, as the API requires.
std::string reply;

constexpr std::uint8_t kFailure = 1;

// The first line of `what`: the error names the key or the event there, and the message that
// follows in a RequestError could flood Batsim's log.
std::uint8_t fail(const char* function, const std::string& what) {
  std::cerr << "batfill EDC: " << function << ": " << what.substr(0, what.find('\n')) << '\n';
  return kFailure;
}

void hand_back(std::string text, std::uint8_t** data, std::uint32_t* size) {
  reply = std::move(text);
  *data = reinterpret_cast<std::uint8_t*>(reply.data());
  *size = static_cast<std::uint32_t>(reply.size() + 1);  // with the terminating NUL
}

}  // namespace

// Compiled with hidden visibility: only these three are marked for export.
#define BATFILL_EDC_EXPORT __attribute__((visibility("default")))

extern "C" {

BATFILL_EDC_EXPORT std::uint8_t batsim_edc_init(const std::uint8_t* init_data,
                                                std::uint32_t init_size, std::uint32_t* flags,
                                                std::uint8_t** reply_data,
                                                std::uint32_t* reply_size) noexcept {
  if (flags == nullptr || reply_data == nullptr || reply_size == nullptr) {
    return fail("batsim_edc_init", "null output pointer");
  }
  try {
    const std::string_view init(reinterpret_cast<const char*>(init_data),
                                init_data == nullptr ? 0 : init_size);
    session.reset();
    // The defaults of `batfill serve`; the init string overrides them key by key.
    auto fresh = std::make_unique<Batsim5Session>(
        batfill::adapter::Settings{}, batfill::adapter::Log(batfill::adapter::Verbosity::kQuiet));
    std::string hello = fresh->initialise(init);
    session = std::move(fresh);
    *flags = batfill::protocol::batsim5::kFormatJson;
    hand_back(std::move(hello), reply_data, reply_size);
    return 0;
  } catch (const std::exception& e) {
    return fail("batsim_edc_init", e.what());
  } catch (...) {
    return fail("batsim_edc_init", "unknown error");
  }
}

BATFILL_EDC_EXPORT std::uint8_t batsim_edc_take_decisions(const std::uint8_t* what_happened,
                                                          std::uint32_t what_happened_size,
                                                          std::uint8_t** decisions,
                                                          std::uint32_t* decisions_size) noexcept {
  if (session == nullptr) {
    return fail("batsim_edc_take_decisions", "called before a successful init");
  }
  if (what_happened == nullptr || decisions == nullptr || decisions_size == nullptr) {
    return fail("batsim_edc_take_decisions", "null pointer argument");
  }
  try {
    const std::string_view request(reinterpret_cast<const char*>(what_happened),
                                   what_happened_size);
    hand_back(session->decide(request), decisions, decisions_size);
    return 0;
  } catch (const std::exception& e) {
    return fail("batsim_edc_take_decisions", e.what());
  } catch (...) {
    return fail("batsim_edc_take_decisions", "unknown error");
  }
}

BATFILL_EDC_EXPORT std::uint8_t batsim_edc_deinit() noexcept {
  session.reset();
  reply.clear();
  reply.shrink_to_fit();
  return 0;
}

}  // extern "C"
