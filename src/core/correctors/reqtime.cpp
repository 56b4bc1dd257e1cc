// A job that outlived its prediction is planned until its walltime: at most one correction.

#include "batfill/core/prediction.hpp"

namespace batfill {
namespace {

class Reqtime final : public Corrector {
 public:
  Time correct(const Job& job, Time, Time, int) const override { return job.time_limit; }
};

}  // namespace

std::unique_ptr<Corrector> make_reqtime_corrector() { return std::make_unique<Reqtime>(); }

}  // namespace batfill
