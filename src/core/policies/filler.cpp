// Greedy filling: every waiting job that fits in the free machines starts, in queue order, and
// a job that does not fit blocks nobody. batsched's `filler` (docs/usage.md#batscheds-variants):
// no reservation, so a wide job may wait for ever behind narrow ones.

#include "batfill/core/policy.hpp"

namespace batfill {
namespace {

class Filler final : public Policy {
 public:
  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    std::vector<const Job*> started;
    int free_nodes = view.free_nodes;
    for (const Job* job : view.queue) {
      if (free_nodes == 0) break;
      if (job->nodes > free_nodes) continue;
      free_nodes -= job->nodes;
      started.push_back(job);
    }
    return started;
  }
};

}  // namespace

std::unique_ptr<Policy> make_filler_policy() { return std::make_unique<Filler>(); }

}  // namespace batfill
