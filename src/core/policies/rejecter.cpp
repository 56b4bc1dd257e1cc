// Every job is rejected at its submission: batsched's `rejecter` and `waiting_time_estimator`
// (docs/usage.md#batscheds-variants), a scheduler that only tests the rejection path. Nothing
// ever waits, so nothing ever starts, and every waiting-time estimate is "never".

#include "batfill/core/policy.hpp"

namespace batfill {
namespace {

class Rejecter final : public Policy {
 public:
  std::string refusal(const Job& /*job*/) const override {
    return "is refused: the rejecter policy rejects every job";
  }

  std::vector<const Job*> select_jobs_to_start(const SchedulingView& /*view*/) override {
    return {};
  }
};

}  // namespace

std::unique_ptr<Policy> make_rejecter_policy() { return std::make_unique<Rejecter>(); }

}  // namespace batfill
