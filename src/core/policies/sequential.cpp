// One job at a time, in queue order: the algorithm of batsched's `sleeper` and `energy_watcher`
// (docs/usage.md#energy-batscheds-sleeper-and-energy_watcher). The head starts when no job runs
// and it fits in the free machines; nothing else ever starts.

#include "batfill/core/policy.hpp"

namespace batfill {
namespace {

class Sequential final : public Policy {
 public:
  void on_job_started(const Job& /*job*/, std::size_t /*position*/) override { ++running_; }
  void on_job_completed(const Job& /*job*/) override { --running_; }

  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    if (running_ != 0 || view.queue.empty()) return {};
    const Job* head = view.queue[0];
    if (head->nodes > view.free_nodes) return {};
    return {head};
  }

  // Only the head may start, and only once nothing runs
  // (docs/semantics.md#idle-power-off-power_off_after).
  long long power_demand(QueueView queue) const override {
    return running_ != 0 || queue.empty() ? 0 : queue[0]->nodes;
  }

  // Each job waits for every job ahead of it and for the running one, one after the other: the
  // planned ends of the running jobs, then the limits of the jobs ahead, then this job.
  Time estimate_start(const Job& job, const PendingEvents& /*pending*/,
                      const SchedulingView& view) const override {
    Time start = view.now;
    for (const auto& [end, nodes] : *view.releases) start = std::max(start, end);
    for (const Job* ahead : view.queue) {
      if (ahead == &job) return start;
      start = planned_end(*ahead, start);
    }
    return start;
  }

 private:
  int running_ = 0;
};

}  // namespace

std::unique_ptr<Policy> make_sequential_policy() { return std::make_unique<Sequential>(); }

}  // namespace batfill
