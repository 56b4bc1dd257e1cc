#pragma once
// `batfill serve`: batfill as an external Batsim scheduler over ZeroMQ.
//
// Batsim owns a REQ socket and connects; the scheduler binds a REP socket and must answer every
// request with exactly one reply, the last one being the (empty) reply to SIMULATION_ENDS
// (docs/protocol.md §1). Batsim has no timeout of its own. serve notices a closed connection
// at once, and waits at most `timeout` for each request from a peer that stays connected.

#include <chrono>
#include <iostream>
#include <string>

#include "batfill/adapter/event_batching.hpp"
#include "batfill/adapter/log.hpp"
#include "batfill/core/scheduler.hpp"

namespace batfill::transport {

struct ServeOptions {
  std::string endpoint = "tcp://*:28000";  // Batsim's and batsched's default port
  // Longest wait for the next request. Generous: Batsim may spend a long time simulating
  // between two requests.
  std::chrono::milliseconds timeout = std::chrono::hours(1);
  std::string policy = "easy";
  SchedulerOptions scheduler;
  adapter::EventBatching batching = adapter::EventBatching::kInstant;
  adapter::Verbosity verbosity = adapter::Verbosity::kInfo;
};

// Exit statuses of serve().
constexpr int kServeEnded = 0;           // SIMULATION_ENDS answered
constexpr int kServeProtocolError = 1;  // a request batfill cannot apply (message printed)
constexpr int kServeTimeout = 2;        // no request within options.timeout
constexpr int kServeSocketError = 3;    // cannot bind, send or receive

// Runs one simulation to its end. Never throws: every failure is one line on `errors`
// ("batfill serve: message #K: <what>", with the offending message truncated) and a non-zero
// status. Log lines (options.verbosity) go to `errors` too.
int serve(const ServeOptions& options, std::ostream& errors = std::cerr);

}  // namespace batfill::transport
