// Tsafrir, Etsion & Feitelson (2007): the mean of the user's last two completed runtimes, in
// completion order, rounded down to a whole second (the rule works in integer seconds) and
// capped by the walltime; the walltime while the user has
// fewer than two completed jobs or is unknown
// (docs/semantics.md#predictions-correctors-and-backfill-order).

#include <algorithm>
#include <unordered_map>

#include "batfill/core/prediction.hpp"

namespace batfill {
namespace {

class Tsafrir final : public Predictor {
 public:
  Time predict(const Job& job, Time, const std::vector<RunningJobInfo>&) override {
    const auto it = history_.find(job.user);
    if (job.user < 0 || it == history_.end() || it->second.previous == kNoTimeLimit) {
      return job.time_limit;
    }
    const Time mean = (it->second.last + it->second.previous) / 2;
    return std::min(mean - mean % kMicrosecondsPerSecond, job.time_limit);
  }

  bool learns() const override { return true; }
  void learn(const Job& job, Time runtime, Time) override {
    if (job.user < 0) return;
    Recent& recent = history_[job.user];
    recent.previous = recent.last;
    recent.last = runtime;
  }

 private:
  struct Recent {
    Time last = kNoTimeLimit;
    Time previous = kNoTimeLimit;
  };
  std::unordered_map<int, Recent> history_;
};

}  // namespace

std::unique_ptr<Predictor> make_tsafrir_predictor(const PredictorOptions& options) {
  expect_no_options("tsafrir", options);
  return std::make_unique<Tsafrir>();
}

}  // namespace batfill
