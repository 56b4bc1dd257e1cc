#pragma once
// `batfill serve`: batfill as an external Batsim scheduler over ZeroMQ, for Batsim 4 and
// Batsim 5 alike.
//
// Batsim owns a REQ socket and connects; the scheduler binds a REP socket and must answer every
// request with exactly one reply, the last one being the (empty) reply to the simulation's end
// (docs/protocol.md "Transport"). One loop serves both protocols: it owns the socket, its size
// cap, the endpoint check, the notice of a dead peer, --timeout, signals, a second Batsim on the
// port, and the linger that delivers the last reply; an adapter::Session turns each request into
// its reply. Batsim has no timeout of its own. serve notices a closed connection at once, and
// waits at most `timeout` for each request from a peer that stays connected.

#include <chrono>
#include <iostream>
#include <string>

#include "batfill/adapter/log.hpp"
#include "batfill/adapter/session.hpp"
#include "batfill/adapter/settings.hpp"

namespace batfill::transport {

struct ServeOptions {
  std::string endpoint = "tcp://*:28000";  // Batsim's and batsched's default port
  // Longest wait for the next request. Generous: Batsim may spend a long time simulating
  // between two requests.
  std::chrono::milliseconds timeout = std::chrono::hours(1);
  adapter::Protocol protocol = adapter::Protocol::kBatsim4;
  adapter::Settings settings;
  adapter::Verbosity verbosity = adapter::Verbosity::kInfo;
};

// Exit statuses of serve(), and of `batfill serve` (docs/protocol.md "Timeouts and exit
// statuses of batfill serve").
constexpr int kServeEnded = 0;          // the simulation's end answered
constexpr int kServeProtocolError = 1;  // a request batfill cannot apply (message printed)
constexpr int kServeTimeout = 2;        // no request within options.timeout
constexpr int kServeSocketError = 3;    // cannot bind, send or receive; the peer is gone
// SIGINT or SIGTERM: this plus the signal's number, as a shell reports a process it ended.
constexpr int kServeInterrupted = 128;

// Runs one simulation to its end. Never throws: every failure is one line on `errors`
// ("batfill serve: message #K: <what>", with the offending message truncated) and a non-zero
// status. Log lines (options.verbosity) go to `errors` too. Batsim, when it waits for a reply
// batfill will not give (a request it cannot apply, a signal), gets one that stops it quoting
// the reason.
int serve(const ServeOptions& options, std::ostream& errors = std::cerr);

}  // namespace batfill::transport
