// Plain FCFS: the queue head starts when it fits; nothing ever overtakes it.

#include "batfill/core/policy.hpp"
#include "batfill/core/start_estimate.hpp"

namespace batfill {
namespace {

class Fcfs final : public Policy {
 public:
  bool needs_time_limits() const override { return false; }

  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    std::vector<const Job*> started;
    int free_nodes = view.free_nodes;
    for (const Job* job : *view.queue) {
      if (job->nodes > free_nodes) break;
      free_nodes -= job->nodes;
      started.push_back(job);
    }
    return started;
  }

  // Nobody overtakes: a job starts no earlier than every job ahead of it.
  Time estimate_start(const Job& job, const SchedulingView& view) const override {
    return planned_start_in_queue(job, view, /*may_overtake=*/false);
  }
};

}  // namespace

std::unique_ptr<Policy> make_fcfs_policy() { return std::make_unique<Fcfs>(); }

}  // namespace batfill
