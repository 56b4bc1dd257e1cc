// Classic EASY backfilling (Lifka 1995; Mu'alem & Feitelson 2001;
// docs/semantics.md#easy-classic--lifkas-easy-mualem--feitelson-2001).
//
// As the spec's EASY, the head cascades and the blocked head gets a reservation (its shadow
// time) from the running jobs' planned ends. A later job fits now and may start if EITHER it
// ends by the shadow time (`<=`: the head only needs the nodes at that instant) OR it uses
// no more than the extra nodes: those free at the shadow time beyond what the head needs.
// A backfilled job that runs past the shadow time uses up extra nodes.
//
// One sweep is enough: backfilling only takes nodes, so the head still does not fit after it
// and the candidates refused once stay refused.
//
// Candidates are tried in queue order or, with the SJBF backfill order, by increasing predicted
// runtime (a stable sort: ties keep queue order). With predictions this is exactly pyss's test
// of each candidate against an availability profile holding the head's reservation
// (docs/semantics.md#predictions-correctors-and-backfill-order): free nodes never decrease after
// now apart from the head's reservation, so a job fits for its whole predicted run iff it fits now
// and either ends by the shadow time or fits in the extra nodes.

#include <algorithm>

#include "batfill/core/policy.hpp"
#include "batfill/core/queue_rules.hpp"
#include "batfill/core/release_timeline.hpp"
#include "queue_copy.hpp"

namespace batfill {
namespace {

// What a job behind the blocked head must satisfy to backfill, as the sweep begins.
struct BackfillWindow {
  Time now;
  Time shadow_time;
  int free_nodes;
  int extra_nodes;

  // Free and extra nodes only decrease during the sweep, so a job refused here is refused
  // throughout it: too large for the nodes free now, without a run limit (docs/semantics.md
  // docs/semantics.md#queues---queues), or neither ending by the shadow time nor fitting in the
  // extra nodes.
  bool admits(const Job& job) const {
    return job.nodes <= free_nodes && job.has_time_limit() &&
           (planned_end(job, now) <= shadow_time || job.nodes <= extra_nodes);
  }
  // The same test on a job's copy, without the run limit: it refuses no job admits.
  bool may_admit(const QueueCopy::Entry& copy) const {
    return copy.nodes <= free_nodes &&
           (add_saturating(now, copy.runtime) <= shadow_time || copy.nodes <= extra_nodes);
  }
};

// The jobs behind the head that the window admits, by increasing predicted runtime (SJBF).
// Leaving the others out first changes no decision, but spares copying and sorting a long queue
// at every pass: on a loaded machine few jobs behind the head can start. The copy of the queue
// finds them without reading the others.
std::vector<const Job*> shortest_first(const SchedulingView& view, std::size_t head,
                                       const BackfillWindow& window, QueueCopy& copy) {
  const QueueView& queue = view.queue;
  std::vector<const Job*> behind;
  if (window.free_nodes == 0) return behind;
  auto may_admit = [&window](const QueueCopy::Entry& entry) { return window.may_admit(entry); };
  for (std::size_t position = copy.next(head + 1, may_admit); position < queue.size();
       position = copy.next(position + 1, may_admit)) {
    if (window.admits(*queue[position])) behind.push_back(queue[position]);
  }
  std::stable_sort(behind.begin(), behind.end(), [](const Job* a, const Job* b) {
    return planned_runtime(*a) < planned_runtime(*b);
  });
  return behind;
}

class EasyClassic final : public QueueCopyPolicy {
 public:
  bool orders_candidates() const override { return true; }

  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    queue_copy_.follow(view.queue);
    std::vector<const Job*> started;
    ReleaseTimeline timeline(view);
    QueueGate gate(view, &clock_);
    const QueueView& queue = view.queue;
    auto start = [&](const Job* job) {
      timeline.start(*job);
      gate.start(*job);
      started.push_back(job);
    };

    // The head cascade. With queues (docs/semantics.md#queues---queues) a job held by a slot limit,
    // or blocked in a queue that does not reserve, is passed over: the head is the first blocked
    // job that holds a reservation.
    std::size_t head = 0;
    for (; head < queue.size(); ++head) {
      const Job* job = queue[head];
      if (!gate.within_limits(*job)) continue;
      if (job->nodes <= timeline.free_nodes()) {
        start(job);
      } else if (gate.may_reserve(*job)) {
        break;
      }
    }
    // Without a free node nothing can backfill, so the shadow time is not needed (a pass on a
    // full machine is the common case of a loaded one).
    if (head == queue.size() || timeline.free_nodes() == 0) return started;

    const int head_nodes = queue[head]->nodes;
    const Time shadow_time = timeline.earliest_time_with(head_nodes);
    // The head waits for a job without a run limit: its start is unknown, so nothing may be
    // planned around it (LSF cannot backfill then).
    if (shadow_time == kNever && timeline.waits_on_unlimited(head_nodes)) return started;
    // Counts every job released at the shadow time, as the head may use all of them.
    int extra_nodes = timeline.free_nodes_at(shadow_time) - head_nodes;
    auto try_backfill = [&](const Job* job) {
      if (job->nodes > timeline.free_nodes() || !job->has_time_limit() ||
          !gate.within_limits(*job)) {
        return;
      }
      // Ending by the shadow time uses the head's reserved nodes: only backfill queues may.
      if (gate.may_backfill(*job) && planned_end(*job, view.now) <= shadow_time) {
        start(job);
      } else if (job->nodes <= extra_nodes) {
        extra_nodes -= job->nodes;
        start(job);
      }
    };
    if (view.backfill_order == BackfillOrder::kShortestFirst) {
      const BackfillWindow window{view.now, shadow_time, timeline.free_nodes(), extra_nodes};
      for (const Job* job : shortest_first(view, head, window, queue_copy_)) {
        if (timeline.free_nodes() == 0) break;
        try_backfill(job);
      }
      return started;
    }
    // In queue order the window the walk skips by follows the nodes still free and extra: a
    // job it refuses, try_backfill would refuse.
    auto may_admit = [&](const QueueCopy::Entry& entry) {
      return BackfillWindow{view.now, shadow_time, timeline.free_nodes(), extra_nodes}.may_admit(
          entry);
    };
    for (std::size_t position = queue_copy_.next(head + 1, may_admit); position < queue.size();
         position = queue_copy_.next(position + 1, may_admit)) {
      try_backfill(queue[position]);
    }
    return started;
  }

 private:
  ReservationClock clock_;
};

}  // namespace

std::unique_ptr<Policy> make_easy_classic_policy() { return std::make_unique<EasyClassic>(); }

}  // namespace batfill
