#pragma once
// Batsim's rules on the decision process's replies: whatever would make Batsim abort is an error
// here too, thrown as std::runtime_error("invalid decision at t=...: ...").

#include <string>
#include <vector>

#include "batfill/common/machine_set.hpp"
#include "batfill/common/text.hpp"
#include "batfill/protocol/messages.hpp"
#include "machine_ledger.hpp"
#include "simulated_job.hpp"

namespace batfill::simulator {

class ReplyChecker {
 public:
  // Allocations are checked against `machines`, which must outlive the checker.
  explicit ReplyChecker(const MachineLedger& machines) : machines_(machines) {}

  // Batsim requires every event of a reply to be timestamped at or before the reply's `now`.
  void check_timestamp(const protocol::Event& event, Time reply_now, Time now) const;
  // A wake-up must lie in the future, or Batsim would never send REQUESTED_CALL for it.
  void check_wake_up(Time at, Time now) const;
  // The allocation of EXECUTE_JOB or a resize grant (`decision`) for `id`: exactly the requested
  // size, machines that exist, none busy in the ledger.
  void check_allocation(const char* decision, const std::string& id, int requested,
                        const MachineSet& alloc, Time now) const;
  // The errors of a reply that names what cannot be decided: a job that is not waiting
  // (unknown, or already started or rejected); an event that is no decision; a resize grant of
  // no resize request still pending (docs/semantics.md#resize-requests-of-running-jobs).
  [[noreturn]] void throw_not_waiting(const JobTable& jobs, const std::string& id,
                                      const char* decision, Time now) const;
  [[noreturn]] void throw_unexpected_event(const protocol::Event& event, Time now) const;
  // A power decision or energy query, which Batsim refuses without --energy.
  [[noreturn]] void throw_without_energy(const protocol::Event& event, Time now) const;
  [[noreturn]] void throw_no_pending_resize(const std::string& request_id, Time now) const;
  // The decision process left jobs waiting with nothing that could ever wake it again.
  [[noreturn]] static void throw_deadlock(const JobTable& jobs);
  // Batsim requires SIMULATION_ENDS to be answered with no event at all.
  static void check_end_reply(const protocol::Message& reply);
  // Any other decision Batsim refuses, `what` naming it.
  [[noreturn]] static void refuse(Time now, const std::string& what);

 private:
  const MachineLedger& machines_;
};

}  // namespace batfill::simulator
