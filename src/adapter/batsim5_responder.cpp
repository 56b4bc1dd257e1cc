#include "batfill/adapter/batsim5_responder.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <stdexcept>

#include "batfill/adapter/responder.hpp"
#include "batfill/adapter/settings.hpp"
#include "batfill/common/json_document.hpp"
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

// Settings that are each valid may still not combine (a backfill order the policy cannot
// follow): the scheduler refuses them when it is built, at SimulationBegins. A throwaway
// adapter begins a one-machine simulation with them now, so that init fails instead.
void check_settings_combine(const BatsimAdapter& adapter, const std::string& settings) {
  BatsimAdapter trial(adapter.policy(), adapter.options(), Log(Verbosity::kQuiet),
                      adapter.batching());
  protocol::SimulationBegins begins;
  begins.nb_compute_resources = 1;
  begins.sched_config = settings;
  protocol::Message message;
  message.events.push_back({0, begins});
  try {
    trial.exchange(message);
  } catch (const protocol::ProtocolError& e) {
    // "event 0 (SIMULATION_BEGINS): field 'config.sched-config': ..." names Batsim 4's field.
    const std::string what = e.what();
    const std::string field = "field 'config.sched-config': ";
    const std::size_t at = what.find(field);
    throw std::invalid_argument("init string: " +
                                (at == std::string::npos ? what : what.substr(at + field.size())));
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("init string: ") + e.what());
  }
}

}  // namespace

InitSettings read_init_string(std::string_view init, const SchedulerOptions& base) {
  while (!init.empty() && init.back() == '\0') init.remove_suffix(1);
  InitSettings read;
  std::string predictor = base.predictor;
  if (init.find_first_not_of(" \t\r\n") != std::string_view::npos) {
    rapidjson::Document document;
    if (parse_json(document, init).IsError() || !document.IsObject()) {
      throw std::invalid_argument("init string is not a JSON object: '" + std::string(init) + "'");
    }
    read.settings = without_format_key(document);
    if (!read.settings.empty()) {
      Settings settings;
      settings.scheduler.predictor = predictor;
      settings_from_json(read.settings).apply_to(settings);
      predictor = settings.scheduler.predictor;
    }
  }
  // Only the clairvoyant predictor reads the runtime, from the job's delay profile
  // (docs/semantics.md §2.9); other runs spare Batsim the profile in every submission.
  read.forward_profiles = predictor == "clairvoyant";
  return read;
}

Batsim5Responder::Batsim5Responder(std::string policy, SchedulerOptions options, Log log,
                                   EventBatching batching, std::string_view init)
    : log_(log), adapter_(std::move(policy), options, log, batching) {
  const InitSettings settings = read_init_string(init, options);
  settings_ = settings.settings;
  check_settings_combine(adapter_, settings_);
  hello_ = protocol::batsim5::encode_hello(
      {kName, kVersion, "", settings.forward_profiles});
}

std::string Batsim5Responder::reply_to(std::string_view request) {
  const long index = index_++;
  const auto number = [index] { return "#" + std::to_string(index); };
  std::string reply;
  protocol::batsim5::ParsedMessage parsed;
  try {
    parsed = protocol::batsim5::decode(request);
    if (log_.debugging()) log_.debug("message " + number() + ": " + truncated_message(request));
    for (const std::string& ignored : parsed.ignored) {
      log_.info("message " + number() + ", " + ignored);
    }
    // Batsim 5 has no sched-config: the init string carries the settings, applied where Batsim
    // 4's are, at SIMULATION_BEGINS.
    for (protocol::Event& event : parsed.message.events) {
      if (auto* begins = std::get_if<protocol::SimulationBegins>(&event.data)) {
        begins->sched_config = settings_;
      }
    }
    reply = protocol::batsim5::encode(adapter_.exchange(parsed.message));
  } catch (const std::exception& e) {
    throw RequestError("message " + number() + ": " + parsed.in_batsim5_terms(e.what()) +
                       "\n  the message was: " + truncated_message(request));
  }
  if (log_.debugging()) log_.debug("reply " + number() + ": " + truncated_message(reply));
  return reply;
}

}  // namespace batfill::adapter
