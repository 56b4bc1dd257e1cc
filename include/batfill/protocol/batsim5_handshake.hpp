#pragma once
// The framing of Batsim 5's process-mode handshake, for both ends batfill plays
// (docs/protocol.md#process-mode-and-its-handshake): the init request is a native-endian u32
// length then the init string; its reply a native-endian u32 flags word then the message
// holding the EDCHello. Every later message is plain batprotocol.

#include <cstdint>
#include <string>
#include <string_view>

namespace batfill::protocol::batsim5 {

// The init request that carries `init` (the client's side: the stand-in driving a process EDC).
std::string init_request(std::string_view init);
// The init string of an init request; throws std::invalid_argument when the length does not
// match the bytes that follow it.
std::string_view init_of_handshake(std::string_view request);

// The handshake reply: `flags` then `message`.
std::string handshake_reply(std::uint32_t flags, std::string_view message);
struct HandshakeReply {
  std::uint32_t flags = 0;
  std::string_view message;
};
// Splits a handshake reply; throws std::invalid_argument when it is shorter than the flags word.
HandshakeReply read_handshake_reply(std::string_view reply);

}  // namespace batfill::protocol::batsim5
