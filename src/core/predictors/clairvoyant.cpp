// The actual runtime as the prediction (an upper bound of what predictions can give), capped by
// the walltime, which ends the job anyway. Without a known runtime: the walltime.

#include <algorithm>

#include "batfill/core/prediction.hpp"

namespace batfill {
namespace {

class Clairvoyant final : public Predictor {
 public:
  Time predict(const Job& job, Time, const std::vector<RunningJobInfo>&) override {
    return std::min(job.runtime, job.time_limit);
  }
  bool learns() const override { return false; }
};

}  // namespace

std::unique_ptr<Predictor> make_clairvoyant_predictor(const PredictorOptions& options) {
  expect_no_options("clairvoyant", options);
  return std::make_unique<Clairvoyant>();
}

}  // namespace batfill
