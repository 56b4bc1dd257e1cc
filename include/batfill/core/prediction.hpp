#pragma once
// Runtime predictions (docs/semantics.md#predictions-correctors-and-backfill-order): a Predictor
// gives every job a predicted runtime at submission, which planning uses in place of the walltime;
// a Corrector gives a running job that outlived its prediction a new one. The walltime stays the
// kill time.
//
// Adding a predictor or a corrector: one file in src/core/predictors/ or src/core/correctors/
// and one line in src/core/prediction_registry.cpp.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "batfill/core/job.hpp"

namespace batfill {

// A job running when another is submitted, as a predictor may see it.
struct RunningJobInfo {
  const Job* job = nullptr;
  Time start = 0;
};

// A predictor's options, key -> value text (as written in --predictor-options JSON).
using PredictorOptions = std::map<std::string, std::string>;

class Predictor {
 public:
  virtual ~Predictor() = default;

  // The predicted runtime of `job`, submitted at `now`. `running` holds the jobs started before
  // `now` and not completed before `now` (those completing at `now` still run: pyss handles
  // terminations after submissions, docs/semantics.md#predictions-correctors-and-backfill-order);
  // filled only when uses_running_jobs().
  virtual Time predict(const Job& job, Time now, const std::vector<RunningJobInfo>& running) = 0;
  virtual bool uses_running_jobs() const { return false; }

  // `job` completed at `now` after running for `runtime`: what learning predictors learn from.
  // Called in completion order, and only when learns(): the others need no completion kept.
  virtual bool learns() const { return false; }
  virtual void learn(const Job& /*job*/, Time /*runtime*/, Time /*now*/) {}
};

class Corrector {
 public:
  virtual ~Corrector() = default;

  // The new prediction of a running job that outlived `prediction`. `initial` is its prediction
  // at submission, `corrections` how many corrections it had before this one.
  virtual Time correct(const Job& job, Time initial, Time prediction, int corrections) const = 0;
};

struct PredictorInfo {
  std::string name;         // as given to --predictor
  std::string description;  // one line for `batfill policies` and error messages
  std::unique_ptr<Predictor> (*make)(const PredictorOptions& options);
};

struct CorrectorInfo {
  std::string name;  // as given to --corrector
  std::string description;
  std::unique_ptr<Corrector> (*make)();
};

const std::vector<PredictorInfo>& registered_predictors();
const std::vector<CorrectorInfo>& registered_correctors();
std::vector<std::string> predictor_names();
std::vector<std::string> corrector_names();

// All throw std::invalid_argument naming the valid choices (or the bad option).
const PredictorInfo& find_predictor(const std::string& name);
const CorrectorInfo& find_corrector(const std::string& name);
std::unique_ptr<Predictor> make_predictor(const std::string& name,
                                          const PredictorOptions& options = {});
std::unique_ptr<Corrector> make_corrector(const std::string& name);

// Predictors without options call this with theirs: any option is an error naming the predictor.
void expect_no_options(const std::string& predictor, const PredictorOptions& options);

}  // namespace batfill
