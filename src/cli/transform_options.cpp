#include "transform_options.hpp"

#include "batfill/common/text.hpp"
#include "batfill/workload/transform.hpp"

namespace batfill::cli {
namespace po = boost::program_options;

po::options_description transform_options_description() {
  po::options_description options("workload transformations (docs/semantics.md §5.8)");
  options.add_options()("load-factor", po::value<double>()->default_value(1, "1"),
                        "multiply the load: inter-arrival times are divided by F")(
      "shake", po::value<std::string>(),
      "SEED[:PCT]: move each submit time by a seeded random amount within +-PCT % (default 5) "
      "of its gap to the previous submission");
  return options;
}

AppliedTransforms apply_transforms(const po::variables_map& values,
                                   std::unique_ptr<workload::JobStream>& jobs) {
  AppliedTransforms applied;
  const double load_factor = values["load-factor"].as<double>();
  workload::check_load_factor(load_factor);  // before --shake, as the two are applied
  std::optional<workload::Shake> shake;
  if (values.count("shake")) shake = workload::parse_shake(values["shake"].as<std::string>());
  jobs = workload::transform_jobs(std::move(jobs), load_factor, shake);
  if (load_factor != 1) {
    applied.load_factor = shortest_text(load_factor);
    applied.summary = "load factor " + applied.load_factor + " (inter-arrival times / " +
                      applied.load_factor + ")";
  }
  if (shake) {
    const std::string percent = shortest_text(100 * shake->fraction);
    applied.shake = std::to_string(shake->seed) + ":" + percent;
    applied.summary += std::string(applied.summary.empty() ? "" : "; ") +
                       "submit times shaken: seed " + std::to_string(shake->seed) + ", +-" +
                       percent + " % of each gap";
  }
  return applied;
}

}  // namespace batfill::cli
