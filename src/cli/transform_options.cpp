#include "transform_options.hpp"

#include "batfill/workload/transform.hpp"

namespace batfill::cli {
namespace po = boost::program_options;

po::options_description transform_options_description() {
  po::options_description options(
      "workload transformations "
      "(docs/semantics.md#load-scaling-and-input-shaking---load-factor---shake)");
  options.add_options()("load-factor", po::value<double>()->default_value(1, "1"),
                        "multiply the load: inter-arrival times are divided by F")(
      "shake", po::value<std::string>(),
      "SEED[:PCT]: move each submit time by a seeded random amount within +-PCT % (default 5) "
      "of its gap to the previous submission");
  return options;
}

AppliedTransforms apply_transforms(const po::variables_map& values,
                                   std::unique_ptr<workload::JobStream>& jobs) {
  const double load_factor = values["load-factor"].as<double>();
  workload::check_load_factor(load_factor);  // before --shake, as the two are applied
  std::optional<workload::Shake> shake;
  if (values.count("shake")) shake = workload::parse_shake(values["shake"].as<std::string>());
  return workload::apply_transforms(jobs, load_factor, shake);
}

}  // namespace batfill::cli
