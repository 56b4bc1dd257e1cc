#pragma once
// The scheduler's side of Batsim's lockstep exchange, as the simulator sees it: one request in,
// exactly one reply out. batfill's own scheduler (adapter::BatsimAdapter) and an external one
// over ZeroMQ (transport::RemoteDecisionProcess) both implement it.

#include <string>

#include "batfill/protocol/messages.hpp"

namespace batfill::protocol {

class DecisionProcess {
 public:
  virtual ~DecisionProcess() = default;
  virtual Message exchange(const Message& request) = 0;
};

}  // namespace batfill::protocol
