#include "policy_options.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "batfill/common/text.hpp"

namespace batfill::cli {
namespace po = boost::program_options;
namespace {

// The flags' values, then batsched's --variant_options (the same JSON object as Batsim's
// sched-config): every spelling of one setting must agree
// (docs/protocol.md#batsched-compatible-command-line).
adapter::SettingValues given_settings(const po::variables_map& values) {
  adapter::SettingValues given = adapter::settings_from_flags(
      [&values](const std::string& flag) -> std::optional<std::string> {
        if (!values.count(flag)) return std::nullopt;
        return values[flag].as<std::string>();
      });
  if (!values.count("variant_options")) return given;
  adapter::SettingValues variant_options;
  try {
    variant_options = adapter::settings_from_json(values["variant_options"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--variant_options: ") + e.what());
  }
  for (const adapter::SettingValue& value : variant_options.all()) given.add(value);
  return given;
}

adapter::Verbosity verbosity(const po::variables_map& values, adapter::Verbosity fallback) {
  if (!values.count("verbosity")) return fallback;
  const std::string level = values["verbosity"].as<std::string>();
  return adapter::parse_verbosity(level == "silent" ? "quiet" : level);
}

}  // namespace

po::options_description policy_options_description() {
  po::options_description options("Scheduling");
  for (const adapter::SettingFlag& flag : adapter::setting_flags()) {
    options.add_options()(flag.name.c_str(), po::value<std::string>(), flag.description.c_str());
  }
  const std::string variant_options =
      "JSON object with keys " + join(adapter::setting_keys()) + " (batsched's option)";
  options.add_options()("variant_options", po::value<std::string>(), variant_options.c_str())(
      "verbosity", po::value<std::string>(), "quiet, info or debug (batsched also has silent)");
  return options;
}

PolicyChoice resolve_policy_choice(const po::variables_map& values,
                                   adapter::Verbosity default_verbosity) {
  PolicyChoice choice;
  given_settings(values).apply_to(choice.settings);
  // Checked now, before any simulation starts or any Batsim connects.
  adapter::check_settings(choice.settings);
  choice.verbosity = verbosity(values, default_verbosity);
  return choice;
}

}  // namespace batfill::cli
