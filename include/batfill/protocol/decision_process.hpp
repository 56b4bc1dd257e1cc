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

  // When the scheduler plans a running job to end as of `now`: start + its predicted runtime once
  // the corrections due by `now` are made (docs/semantics.md §2.9); kNever when it does not say
  // (an external scheduler) or the job is not running. Only the stand-in's per-event batching
  // asks, to send the completions of jobs at their planned end first, as pyss frees them.
  virtual Time planned_end(const std::string& /*job_id*/, Time /*now*/) const { return kNever; }
};

}  // namespace batfill::protocol
