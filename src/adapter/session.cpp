#include "batfill/adapter/session.hpp"

#include <cstdint>
#include <cstring>

#include "batfill/adapter/batsim4_session.hpp"
#include "batfill/adapter/batsim5_session.hpp"
#include "batfill/protocol/batsim5_codec.hpp"
#include "batfill/protocol/batsim5_handshake.hpp"
#include "batfill/protocol/codec.hpp"

namespace batfill::adapter {
// A SIMULATION_BEGINS alone is a few kilobytes: enough to see what went wrong, not a flood.
std::string truncated_message(std::string_view message) {
  constexpr std::size_t kShown = 1000;
  if (message.size() <= kShown) return std::string(message);
  return std::string(message.substr(0, kShown)) + "... (" + std::to_string(message.size()) +
         " bytes)";
}

Protocol parse_protocol(const std::string& name) {
  if (name == "batsim4") return Protocol::kBatsim4;
  if (name == "batsim5") return Protocol::kBatsim5;
  throw std::invalid_argument("--protocol must be batsim4 or batsim5, not '" + name + "'");
}

std::string Session::refusal(std::string_view request, const std::string& what) const {
  if (is_batsim5_handshake(request)) return stop_notice_in(Protocol::kBatsim5, true, what);
  if (protocol::has_batsim4_envelope(request)) return stop_notice_in(Protocol::kBatsim4, false, what);
  // A Batsim 5's first request is its handshake.
  return stop_notice_in(protocol(), protocol() == Protocol::kBatsim5, what);
}

std::unique_ptr<Session> make_session(Protocol protocol, const Settings& settings, Log log) {
  if (protocol == Protocol::kBatsim5) return std::make_unique<Batsim5Session>(settings, log);
  return std::make_unique<Batsim4Session>(settings, log);
}

bool is_batsim5_handshake(std::string_view request) {
  std::uint32_t length = 0;
  if (request.size() < sizeof length) return false;
  std::memcpy(&length, request.data(), sizeof length);
  return length == request.size() - sizeof length;
}

std::string stop_notice_in(Protocol protocol, bool handshake, const std::string& what) {
  if (protocol == Protocol::kBatsim4) return protocol::write_stop_notice(what);
  const std::string notice = protocol::batsim5::write_stop_notice(what);
  return handshake ? protocol::batsim5::handshake_reply(protocol::batsim5::kFormatJson, notice) : notice;
}

}  // namespace batfill::adapter
