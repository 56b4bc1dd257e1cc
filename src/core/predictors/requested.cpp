// The requested time (walltime) as the prediction: the spec's pessimistic planning, the default.

#include "batfill/core/prediction.hpp"

namespace batfill {
namespace {

class Requested final : public Predictor {
 public:
  Time predict(const Job& job, Time, const std::vector<RunningJobInfo>&) override {
    return job.time_limit;
  }
  bool learns() const override { return false; }
};

}  // namespace

std::unique_ptr<Predictor> make_requested_predictor(const PredictorOptions& options) {
  expect_no_options("requested", options);
  return std::make_unique<Requested>();
}

}  // namespace batfill
