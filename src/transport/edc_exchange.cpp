#include "edc_exchange.hpp"

#include <stdexcept>

namespace batfill::transport {

void require_json_format(std::uint32_t flags, const std::string& edc) {
  if ((flags & protocol::batsim5::kFormatJson) != 0) return;
  throw std::runtime_error(
      edc + " chose batprotocol's binary format, and batfill speaks JSON only: give it an init "
      "string that asks for JSON (Batsim's example EDCs take --scheduler-init "
      "'{\"format_json\": true}')");
}

std::string edc_request(const protocol::Message& request,
                        const protocol::batsim5::EdcHello& hello) {
  if (hello.forward_profiles_on_job_submission) return protocol::batsim5::encode(request);
  protocol::Message copy = request;
  for (protocol::Event& event : copy.events) {
    if (auto* submitted = std::get_if<protocol::JobSubmitted>(&event.data)) {
      submitted->forwarded_delay = kNoTimeLimit;
    }
  }
  return protocol::batsim5::encode(copy);
}

protocol::Message edc_decisions(std::string_view reply, const std::string& where) {
  try {
    protocol::batsim5::ParsedMessage parsed = protocol::batsim5::decode(reply);
    if (!parsed.ignored.empty()) {
      throw protocol::ProtocolError("not a decision: " + parsed.ignored.front());
    }
    return std::move(parsed.message);
  } catch (const protocol::ProtocolError& e) {
    if (const auto notice = protocol::batsim5::read_stop_notice(reply)) {
      throw std::runtime_error(where + ": the EDC stopped: " + *notice);
    }
    throw std::runtime_error(where + ", reply: " + e.what());
  }
}

}  // namespace batfill::transport
