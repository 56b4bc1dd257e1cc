#include "batfill/adapter/batsim5_session.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>
#include <stdexcept>

#include "batfill/adapter/settings.hpp"
#include "batfill/common/json_document.hpp"
#include "batfill/common/text.hpp"
#include "batfill/protocol/batsim5_codec.hpp"
#include "batfill/protocol/batsim5_handshake.hpp"
#include "batfill/protocol/codec.hpp"
#include "batfill/protocol/messages.hpp"

namespace batfill::adapter {
namespace {

constexpr const char* kFormatKey = "format_json";
constexpr const char* kName = "batfill";
constexpr const char* kVersion = BATFILL_VERSION;  // CMake's project() version

// The settings object without `format_json`, as text.
std::string without_format_key(rapidjson::Document& document) {
  if (const auto format = document.FindMember(kFormatKey); format != document.MemberEnd()) {
    if (!format->value.IsBool() || !format->value.GetBool()) {
      throw std::invalid_argument(std::string("init string: key '") + kFormatKey +
                                  "' must be true: batfill speaks batprotocol's JSON format only");
    }
    document.RemoveMember(format);
  }
  if (document.MemberCount() == 0) return "";
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  document.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace

InitSettings read_init_string(std::string_view init, const Settings& base) {
  while (!init.empty() && init.back() == '\0') init.remove_suffix(1);
  InitSettings read{base, false};
  if (init.find_first_not_of(" \t\r\n") != std::string_view::npos) {
    rapidjson::Document document;
    if (const rapidjson::ParseResult result = parse_json(document, init); result.IsError()) {
      throw std::invalid_argument("init string is " + json_error_text(result, init));
    }
    if (!document.IsObject()) {
      throw std::invalid_argument("init string is not a JSON object: " + excerpt(init));
    }
    // Settings that are each valid may still not combine (a backfill order the policy cannot
    // follow): refused now, at init, not at SimulationBegins.
    const std::string settings = without_format_key(document);
    if (!settings.empty() && base.make_policy) {
      throw std::invalid_argument("init string: the settings of policy " + base.policy +
                                  " are given by the program that made it, not by Batsim");
    }
    if (!settings.empty()) apply_settings_json(settings, "init string", read.settings);
  }
  // Only the clairvoyant predictor reads the runtime, from the job's delay profile
  // (docs/semantics.md#predictions-correctors-and-backfill-order); other runs spare Batsim the
  // profile in every submission.
  read.forward_profiles = read.settings.scheduler.predictor == "clairvoyant";
  return read;
}

Batsim5Session::Batsim5Session(const Settings& settings, Log log) : settings_(settings), log_(log) {
  check_settings(settings_);
}

const std::string& Batsim5Session::initialise(std::string_view init) {
  const InitSettings read = read_init_string(init, settings_);
  // Batsim 5 has no sched-config: the init string's settings are the adapter's from the start.
  adapter_ = std::make_unique<BatsimAdapter>(read.settings.policy, read.settings.make_policy,
                                             read.settings.scheduler, log_, read.settings.batching);
  hello_ = protocol::batsim5::encode_hello({kName, kVersion, "", read.forward_profiles});
  return hello_;
}

std::string Batsim5Session::decide(std::string_view request) {
  if (adapter_ == nullptr) throw RequestError("a message before a successful init");
  const NumberedRequest numbered(log_, index_++, request);
  return numbered.reply([&] {
    protocol::batsim5::ParsedMessage parsed;
    try {
      parsed = protocol::batsim5::decode(request);
      numbered.log_parsed();
      for (const std::string& ignored : parsed.ignored) {
        log_.info("message " + numbered.number() + ", " + ignored);
      }
      return protocol::batsim5::encode(adapter_->exchange(parsed.message));
    } catch (protocol::ProtocolError& e) {
      // The adapter counts and names the events of the translated message; Batsim 5 wrote
      // its own, some of which the translation leaves out.
      if (e.event() && e.event()->index < parsed.origins.size()) {
        const auto& origin = parsed.origins[e.event()->index];
        e.in_event(origin.index, origin.type);
      }
      throw;
    }
  });
}

std::string Batsim5Session::handshake(std::string_view request) {
  if (!is_batsim5_handshake(request) && protocol::has_batsim4_envelope(request)) {
    batsim4_peer_ = true;
    throw RequestError(
        "the init message is a Batsim 4 message: this is Batsim 4: use `batfill serve "
        "--protocol batsim4` (the default)");
  }
  try {
    return protocol::batsim5::handshake_reply(protocol::batsim5::kFormatJson,
                                              initialise(protocol::batsim5::init_of_handshake(request)));
  } catch (const std::exception& e) {
    throw RequestError(e.what());
  }
}

std::string Batsim5Session::reply_to(std::string_view request) {
  return adapter_ != nullptr ? decide(request) : handshake(request);
}

std::string Batsim5Session::next_request() const {
  return adapter_ != nullptr ? "message #" + std::to_string(index_) : "the init message";
}

std::string Batsim5Session::stop_notice(const std::string& what) const {
  if (batsim4_peer_) return stop_notice_in(Protocol::kBatsim4, false, what);
  return stop_notice_in(Protocol::kBatsim5, adapter_ == nullptr, what);
}

}  // namespace batfill::adapter
