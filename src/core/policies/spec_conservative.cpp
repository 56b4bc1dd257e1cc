// The spec's CONSERVATIVE backfilling (docs/semantics.md#conservative--the-specs-conservative).
//
// Every waiting job has a shadow time computed independently from the running jobs only (as
// the EASY reservation). A later job may start if it fits now and its planned end is strictly
// before the smallest shadow of the jobs still waiting ahead of it; once started it counts as
// running for the shadows seen by the candidates after it.
//
// The literal rule recomputes all shadows for every candidate (quadratic; DR_EVT takes 143.9 s
// for 2000 jobs). Here the result is the same at near-linear cost, because a shadow depends only
// on the node count and grows with it: the smallest shadow ahead is the shadow of the smallest
// job ahead, recomputed only when that minimum or the running set changes.
// tests/core/literal_spec_test.cpp checks this against a literal transcription.
//
// Under a long queue the walk behind the head is most of the time: most jobs there need more
// nodes than are free and than the smallest job ahead, so they neither start nor change the
// window. Their node counts and planned runtimes are kept by position from pass to pass (a
// QueueCopy), so the walk skips them without reading each job.

#include "batfill/core/backfill_pass.hpp"
#include "queue_copy.hpp"

namespace batfill {
namespace {

class SpecConservative final : public QueueCopyPolicy {
 public:
  // The spec plans CONSERVATIVE with walltimes only
  // (docs/semantics.md#predictions-correctors-and-backfill-order).
  bool plans_with_predictions() const override { return false; }

  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    if (view.free_nodes == 0) return {};
    queue_copy_.follow(view.queue);
    BackfillPass pass(view, &clock_);
    bool backfilled = true;
    while (backfilled) {
      const Job* head = pass.start_fitting_heads();
      if (head == nullptr) break;
      backfilled = false;
      int smallest_ahead = head->nodes;
      Time window = pass.timeline().earliest_time_with(smallest_ahead);
      // A job that can neither start nor lower the smallest job ahead changes nothing: the
      // walk visits only the others.
      auto next = [&](std::size_t position) {
        return queue_copy_.next(position, [&](const QueueCopy::Entry& copy) {
          return copy.nodes < smallest_ahead || (copy.nodes <= pass.timeline().free_nodes() &&
                                                 add_saturating(pass.now(), copy.runtime) < window);
        });
      };
      pass.for_each_behind_head(next, [&](std::size_t position, const Job& job) {
        // A window at `now` (a job ahead fits now but did not start) blocks everyone behind
        // it: no planned end is strictly before now. The spec intends this
        // (docs/semantics.md#edge-cases, item 10).
        if (window <= pass.now()) return false;
        // A window that waits on a job without a run limit is unknown: nothing backfills.
        if (window == kNever && pass.timeline().waits_on_unlimited(smallest_ahead)) return false;
        QueueGate& gate = pass.gate();
        if (job.nodes <= pass.timeline().free_nodes() && gate.may_backfill(job) &&
            gate.within_limits(job) && planned_end(job, pass.now()) < window) {
          pass.start(position);
          backfilled = true;
          window = pass.timeline().earliest_time_with(smallest_ahead);
        } else if (job.nodes < smallest_ahead && gate.within_limits(job) && gate.may_reserve(job)) {
          // Only jobs that hold a reservation have a shadow that others must respect.
          smallest_ahead = job.nodes;
          window = pass.timeline().earliest_time_with(smallest_ahead);
        }
        return true;
      });
    }
    return pass.take_started();
  }

 private:
  ReservationClock clock_;
};

}  // namespace

std::unique_ptr<Policy> make_spec_conservative_policy() {
  return std::make_unique<SpecConservative>();
}

}  // namespace batfill
