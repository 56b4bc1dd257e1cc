#include "batfill/common/text.hpp"
#include "batfill/core/prediction.hpp"
#include "named_registry.hpp"

#include <stdexcept>

namespace batfill {

// Factories, one per file in src/core/predictors/ and src/core/correctors/.
std::unique_ptr<Predictor> make_requested_predictor(const PredictorOptions& options);
std::unique_ptr<Predictor> make_clairvoyant_predictor(const PredictorOptions& options);
std::unique_ptr<Predictor> make_tsafrir_predictor(const PredictorOptions& options);
std::unique_ptr<Predictor> make_sgd_predictor(const PredictorOptions& options);
std::unique_ptr<Corrector> make_reqtime_corrector();
std::unique_ptr<Corrector> make_tsafrir_corrector();
std::unique_ptr<Corrector> make_doubling_corrector();

const std::vector<PredictorInfo>& registered_predictors() {
  static const std::vector<PredictorInfo> predictors = {
      {"requested", "the walltime (requested time): the spec's pessimistic planning",
       make_requested_predictor},
      {"clairvoyant",
       "the actual runtime (replays only; beside Batsim it needs forwarded delay "
       "profiles), else the walltime",
       make_clairvoyant_predictor},
      {"tsafrir",
       "mean of the user's last two completed runtimes, capped by the walltime "
       "(Tsafrir et al. 2007)",
       make_tsafrir_predictor},
      {"sgd", "online learned linear model (Gaussier et al. SC'15): NAG, composite loss",
       make_sgd_predictor},
  };
  return predictors;
}

const std::vector<CorrectorInfo>& registered_correctors() {
  static const std::vector<CorrectorInfo> correctors = {
      {"reqtime", "the walltime", make_reqtime_corrector},
      {"tsafrir", "initial prediction + 1 min, 5 min, 15 min, ... 100 h, capped by the walltime",
       make_tsafrir_corrector},
      {"doubling", "twice the current prediction, not capped", make_doubling_corrector},
  };
  return correctors;
}

std::vector<std::string> predictor_names() { return detail::names_of(registered_predictors()); }

std::vector<std::string> corrector_names() { return detail::names_of(registered_correctors()); }

const PredictorInfo& find_predictor(const std::string& name) {
  return detail::find_named(registered_predictors(), name, "predictor");
}

const CorrectorInfo& find_corrector(const std::string& name) {
  return detail::find_named(registered_correctors(), name, "corrector");
}

std::unique_ptr<Predictor> make_predictor(const std::string& name,
                                          const PredictorOptions& options) {
  return find_predictor(name).make(options);
}

std::unique_ptr<Corrector> make_corrector(const std::string& name) {
  return find_corrector(name).make();
}

void expect_no_options(const std::string& predictor, const PredictorOptions& options) {
  if (!options.empty()) {
    throw std::invalid_argument("predictor " + quoted(predictor) + " takes no options, got " +
                                quoted(options.begin()->first));
  }
}

}  // namespace batfill
