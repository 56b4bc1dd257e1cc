// Plain FCFS: the queue head starts when it fits; nothing ever overtakes it. With queues
// (docs/semantics.md#queues---queues) the head is the first job that may reserve; a job held by a
// slot limit, or one that does not fit and whose queue does not reserve, is passed over.

#include "batfill/core/policy.hpp"
#include "batfill/core/queue_rules.hpp"
#include "batfill/core/start_estimate.hpp"

namespace batfill {
namespace {

class Fcfs final : public Policy {
 public:
  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    std::vector<const Job*> started;
    QueueGate gate(view, &clock_);
    int free_nodes = view.free_nodes;
    for (const Job* job : view.queue) {
      if (!gate.within_limits(*job)) continue;
      if (job->nodes > free_nodes) {
        if (gate.may_reserve(*job)) break;
        continue;
      }
      free_nodes -= job->nodes;
      gate.start(*job);
      started.push_back(job);
    }
    return started;
  }

  // Nobody overtakes: a job starts no earlier than every job ahead of it.
  Time estimate_start(const Job& job, const PendingEvents& /*pending*/,
                      const SchedulingView& view) const override {
    return planned_start_in_queue(job, view, /*may_overtake=*/false);
  }

 private:
  ReservationClock clock_;
};

}  // namespace

std::unique_ptr<Policy> make_fcfs_policy() { return std::make_unique<Fcfs>(); }

}  // namespace batfill
