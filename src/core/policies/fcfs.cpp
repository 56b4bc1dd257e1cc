// Plain FCFS: the queue head starts when it fits; nothing ever overtakes it.

#include "batfill/core/policy.hpp"

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
};

}  // namespace

std::unique_ptr<Policy> make_fcfs_policy() { return std::make_unique<Fcfs>(); }

}  // namespace batfill
