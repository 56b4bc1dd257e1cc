#pragma once
// What the stand-in does alike for every Batsim 5 EDC, loaded as a library or run as a process
// (docs/protocol.md#the-stand-in-driving-an-edc-library): it requires the JSON format, sends
// Batsim's events as the EDC's hello asked for them, and reads the reply as decisions. Private
// to src/transport.

#include <cstdint>
#include <string>
#include <string_view>

#include "batfill/protocol/batsim5_codec.hpp"

namespace batfill::transport {

// Throws std::runtime_error, starting with `edc` (which EDC), when `flags` chose the binary format.
void require_json_format(std::uint32_t flags, const std::string& edc);

// `request` in batprotocol JSON, profiles forwarded in JobSubmitted only when `hello` asked, as
// Batsim 5 does.
std::string edc_request(const protocol::Message& request, const protocol::batsim5::EdcHello& hello);

// The decisions of an EDC's reply; throws std::runtime_error, starting with `where`, for a
// reply that is not a message of decisions the stand-in simulates.
protocol::Message edc_decisions(std::string_view reply, const std::string& where);

}  // namespace batfill::transport
