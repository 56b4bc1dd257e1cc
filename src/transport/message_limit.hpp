#pragma once
// The size limit of one Batsim message, for both ends batfill plays: serve's REP socket and
// simulate's REQ socket (ZMQ_MAXMSGSIZE on each). Private to src/transport.

namespace batfill::transport {

// The most bytes one message part may hold, either way
// (docs/protocol.md#peer-death-and-message-size). Real messages are far smaller: a
// SIMULATION_BEGINS of 100,000 machines is about 10 MB.
constexpr long long kMaxMessageBytes = 64LL << 20;

}  // namespace batfill::transport
