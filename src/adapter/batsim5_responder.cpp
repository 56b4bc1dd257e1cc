#include "batfill/adapter/batsim5_responder.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <stdexcept>

#include "batfill/adapter/responder.hpp"
#include "batfill/adapter/settings.hpp"
#include "batfill/common/json_document.hpp"
#include "batfill/common/text.hpp"
#include "batfill/protocol/batsim5_codec.hpp"
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
  InitSettings read;
  if (init.find_first_not_of(" \t\r\n") != std::string_view::npos) {
    rapidjson::Document document;
    if (const rapidjson::ParseResult result = parse_json(document, init); result.IsError()) {
      throw std::invalid_argument("init string is " + json_error_text(result, init));
    }
    if (!document.IsObject()) {
      throw std::invalid_argument("init string is not a JSON object: " + excerpt(init));
    }
    read.settings = without_format_key(document);
  }
  // Settings that are each valid may still not combine (a backfill order the policy cannot
  // follow): refused now, at init, not at SimulationBegins.
  Settings settings = base;
  if (!read.settings.empty()) settings_from_json(read.settings).apply_to(settings);
  try {
    check_settings(settings);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("init string: ") + e.what());
  }
  // Only the clairvoyant predictor reads the runtime, from the job's delay profile
  // (docs/semantics.md §2.9); other runs spare Batsim the profile in every submission.
  read.forward_profiles = settings.scheduler.predictor == "clairvoyant";
  return read;
}

Batsim5Responder::Batsim5Responder(std::string policy, SchedulerOptions options, Log log,
                                   EventBatching batching, std::string_view init)
    : log_(log), adapter_(std::move(policy), options, log, batching) {
  const InitSettings settings =
      read_init_string(init, Settings{adapter_.policy(), options, batching});
  settings_ = settings.settings;
  hello_ = protocol::batsim5::encode_hello(
      {kName, kVersion, "", settings.forward_profiles});
}

std::string Batsim5Responder::reply_to(std::string_view request) {
  const NumberedRequest numbered(log_, index_++, request);
  return numbered.reply([&] {
    protocol::batsim5::ParsedMessage parsed;
    try {
      parsed = protocol::batsim5::decode(request);
      numbered.log_parsed();
      for (const std::string& ignored : parsed.ignored) {
        log_.info("message " + numbered.number() + ", " + ignored);
      }
      // Batsim 5 has no sched-config: the init string carries the settings, applied where
      // Batsim 4's are, at SIMULATION_BEGINS.
      for (protocol::Event& event : parsed.message.events) {
        if (auto* begins = std::get_if<protocol::SimulationBegins>(&event.data)) {
          begins->sched_config = settings_;
        }
      }
      return protocol::batsim5::encode(adapter_.exchange(parsed.message));
    } catch (const std::exception& e) {
      // The adapter names Batsim 4's events and fields; the user wrote Batsim 5's.
      throw std::runtime_error(parsed.in_batsim5_terms(e.what()));
    }
  });
}

}  // namespace batfill::adapter
