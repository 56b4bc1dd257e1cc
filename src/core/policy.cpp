#include "batfill/core/policy.hpp"

#include "batfill/core/start_estimate.hpp"

namespace batfill {

Time Policy::estimate_start(const Job& job, const SchedulingView& view) const {
  return planned_start_in_queue(job, view, /*may_overtake=*/true);
}

}  // namespace batfill
