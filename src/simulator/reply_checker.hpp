#pragma once
// Batsim's rules on the decision process's replies: whatever would make Batsim abort is an error
// here too, thrown as std::runtime_error("invalid decision at t=...: ...").

#include <string>
#include <vector>

#include "batfill/common/machine_bits.hpp"
#include "batfill/common/machine_set.hpp"
#include "batfill/common/text.hpp"
#include "batfill/protocol/messages.hpp"
#include "simulated_job.hpp"

namespace batfill::simulator {

class ReplyChecker {
 public:
  explicit ReplyChecker(int machine_count);

  // Batsim requires every event of a reply to be timestamped at or before the reply's `now`.
  void check_timestamp(const protocol::Event& event, Time reply_now, Time now) const;
  // A wake-up must lie in the future, or Batsim would never send REQUESTED_CALL for it.
  void check_wake_up(Time at, Time now) const;
  // The allocation of EXECUTE_JOB or GRANT_RESIZE (`decision`) for `id`: exactly the requested
  // size, machines that exist, none busy.
  void check_allocation(const char* decision, const std::string& id, int requested,
                        const MachineSet& alloc, Time now) const;
  // A decision named a job that is not waiting: unknown, or already started or rejected.
  [[noreturn]] void reject_not_waiting(const JobTable& jobs, const std::string& id,
                                       const char* decision, Time now) const;
  [[noreturn]] void reject_unexpected(const protocol::Event& event, Time now) const;
  // A GRANT_RESIZE named no resize request still pending (docs/semantics.md §2.11).
  [[noreturn]] void reject_not_pending(const std::string& request_id, Time now) const;
  // The decision process left jobs waiting with nothing that could ever wake it again.
  [[noreturn]] static void throw_deadlock(const JobTable& jobs);
  // Batsim requires SIMULATION_ENDS to be answered with no event at all.
  static void check_end_reply(const protocol::Message& reply);

  // Allocations own their machines from the start of a job to its completion.
  void occupy(const MachineSet& machines) { mark(machines, true); }
  void release(const MachineSet& machines) { mark(machines, false); }

 private:
  bool any_busy(const MachineSet& machines) const;
  MachineSet busy_among(const MachineSet& machines) const;  // for the error message
  void mark(const MachineSet& machines, bool busy);

  // Bits by machine id rather than a MachineSet: a job's bits change a word at a time
  // (docs/performance.md, diary).
  MachineBits busy_;
};

}  // namespace batfill::simulator
