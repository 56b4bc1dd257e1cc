// The spec's EASY backfilling (seeds/000, "EASY Backfilling"; notes §2).
//
// Step 1 starts the queue head while it fits. Step 2 computes the head's reservation from the
// running jobs' planned ends. Step 3 starts, in queue order, every later job that fits in the
// free nodes now and whose planned end is strictly before the reservation; there is no
// "extra nodes" rule. Then back to step 1 until nothing starts.

#include "batfill/core/policy.hpp"
#include "batfill/core/release_timeline.hpp"

namespace batfill {
namespace {

class SpecEasy final : public Policy {
 public:
  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    std::vector<const Job*> started;
    if (view.free_nodes == 0) return started;  // every job needs at least one node
    ReleaseTimeline timeline(view);
    std::vector<const Job*> waiting = *view.queue;
    auto start = [&](const Job* job) {
      timeline.start(*job);
      started.push_back(job);
    };

    bool backfilled = true;
    while (backfilled) {
      // Step 1: the head is the highest priority job; if it fits it starts, period.
      std::size_t heads = 0;
      while (heads < waiting.size() && waiting[heads]->nodes <= timeline.free_nodes()) {
        start(waiting[heads++]);
      }
      waiting.erase(waiting.begin(), waiting.begin() + static_cast<std::ptrdiff_t>(heads));
      if (waiting.empty()) break;

      // Step 2: the head's reservation, from running jobs (heads just started included).
      const Time reservation = timeline.earliest_time_with(waiting.front()->nodes);

      // Step 3: strict `<`, because freed nodes are not back instantly (spec edge case 3).
      backfilled = false;
      auto kept = waiting.begin() + 1;
      for (auto it = waiting.begin() + 1; it != waiting.end(); ++it) {
        const Job* job = *it;
        if (job->nodes <= timeline.free_nodes() && planned_end(*job, view.now) < reservation) {
          start(job);
          backfilled = true;
        } else {
          *kept++ = job;
        }
      }
      waiting.erase(kept, waiting.end());
    }
    return started;
  }
};

}  // namespace

std::unique_ptr<Policy> make_spec_easy_policy() { return std::make_unique<SpecEasy>(); }

}  // namespace batfill
