#include "batfill/core/policy.hpp"

#include <stdexcept>

#include "batfill/common/text.hpp"
#include "batfill/core/start_estimate.hpp"

namespace batfill {

Time Policy::estimate_start(const Job& job, const PendingEvents& /*pending*/,
                            const SchedulingView& view) const {
  return planned_start_in_queue(job, view, /*may_overtake=*/true);
}

}  // namespace batfill

namespace batfill {

BackfillOrder parse_backfill_order(const std::string& name) {
  if (name == "queue") return BackfillOrder::kQueue;
  if (name == "sjbf") return BackfillOrder::kShortestFirst;
  throw std::invalid_argument("unknown backfill order " + quoted(name) + " (valid: queue, sjbf)");
}

std::string to_string(BackfillOrder order) {
  return order == BackfillOrder::kQueue ? "queue" : "sjbf";
}

}  // namespace batfill
