// Tsafrir et al.'s correction: the k-th correction plans the job until its initial prediction
// plus the k-th step below, capped by the walltime; after the last step, the walltime
// (docs/semantics.md#predictions-correctors-and-backfill-order).

#include <algorithm>
#include <array>

#include "batfill/core/prediction.hpp"

namespace batfill {
namespace {

// 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 5 h, 10 h, 20 h, 50 h, 100 h.
constexpr std::array<Time, 11> kSteps = {
    from_seconds(60),    from_seconds(300),    from_seconds(900),   from_seconds(1800),
    from_seconds(3600),  from_seconds(7200),   from_seconds(18000), from_seconds(36000),
    from_seconds(72000), from_seconds(180000), from_seconds(360000)};

class TsafrirCorrector final : public Corrector {
 public:
  Time correct(const Job& job, Time initial, Time, int corrections) const override {
    const auto step = static_cast<std::size_t>(corrections);
    if (step >= kSteps.size()) return job.time_limit;
    return std::min(add_saturating(initial, kSteps[step]), job.time_limit);
  }
};

}  // namespace

std::unique_ptr<Corrector> make_tsafrir_corrector() { return std::make_unique<TsafrirCorrector>(); }

}  // namespace batfill
