// Recursive doubling: twice the current prediction, deliberately not capped by the walltime
// (pyss's rule; the job is killed at its walltime anyway, so planning past it is harmless).

#include "batfill/core/prediction.hpp"

namespace batfill {
namespace {

class Doubling final : public Corrector {
 public:
  Time correct(const Job&, Time, Time prediction, int) const override {
    return add_saturating(prediction, prediction);
  }
};

}  // namespace

std::unique_ptr<Corrector> make_doubling_corrector() { return std::make_unique<Doubling>(); }

}  // namespace batfill
