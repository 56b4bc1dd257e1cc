// The spec's EASY backfilling (docs/semantics.md#easy--the-specs-easy).
//
// Step 1 starts the queue head while it fits. Step 2 computes the head's reservation from the
// running jobs' planned ends. Step 3 starts, in queue order, every later job that fits in the
// free nodes now and whose planned end is strictly before the reservation; there is no
// "extra nodes" rule. Then back to step 1 until nothing starts.
//
// Under a long queue most jobs behind the head are too large for the free nodes or end too
// late: the walk skips them through a QueueCopy, without reading each job.

#include "batfill/core/backfill_pass.hpp"
#include "queue_copy.hpp"

namespace batfill {
namespace {

class SpecEasy final : public QueueCopyPolicy {
 public:
  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    if (view.free_nodes == 0) return {};  // every job needs at least one node
    queue_copy_.follow(view.queue);
    BackfillPass pass(view, &clock_);
    bool backfilled = true;
    while (backfilled) {
      const Job* head = pass.start_fitting_heads();  // step 1
      if (head == nullptr) break;
      // Step 2: the head's reservation, from running jobs (heads just started included).
      const Time reservation = pass.timeline().earliest_time_with(head->nodes);
      // Waiting for a job without a run limit: the start is unknown, nothing backfills.
      if (reservation == kNever && pass.timeline().waits_on_unlimited(head->nodes)) break;
      backfilled = false;
      // The first two tests below, on the copy: only the jobs that pass them are visited.
      auto next = [&](std::size_t position) {
        return queue_copy_.next(position, [&](const QueueCopy::Entry& copy) {
          return copy.nodes <= pass.timeline().free_nodes() &&
                 add_saturating(pass.now(), copy.runtime) < reservation;
        });
      };
      pass.for_each_behind_head(next, [&](std::size_t position, const Job& job) {
        if (pass.timeline().free_nodes() == 0) return false;
        // Step 3: strict `<`, because freed nodes are not back instantly (spec edge case 3).
        // Every free node is the head's until the reservation (no extra nodes here), so only
        // backfill queues may use them (docs/semantics.md#queues---queues).
        // The time test before the queue rules: it fails most often (all four are pure).
        if (job.nodes <= pass.timeline().free_nodes() &&
            planned_end(job, pass.now()) < reservation && pass.gate().may_backfill(job) &&
            pass.gate().within_limits(job)) {
          pass.start(position);
          backfilled = true;
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

std::unique_ptr<Policy> make_spec_easy_policy() { return std::make_unique<SpecEasy>(); }

}  // namespace batfill
