#include "policy_options.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "batfill/common/text.hpp"

namespace batfill::cli {
namespace po = boost::program_options;
namespace {

adapter::SettingValues flag_settings(const po::variables_map& values) {
  return adapter::settings_from_flags(
      [&values](const std::string& flag) -> std::optional<std::string> {
        if (!values.count(flag)) return std::nullopt;
        return values[flag].as<std::string>();
      });
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

// The flags' values, then batsched's --variant_options (the same JSON object as Batsim's
// sched-config), whose values must agree with the flags' that give the same setting
// (docs/protocol.md#batsched-compatible-command-line).
adapter::Settings command_line_settings(const po::variables_map& values) {
  adapter::SettingValues given = flag_settings(values);
  adapter::Settings settings;
  given.apply_to(settings);
  if (!values.count("variant_options")) {
    adapter::check_settings(settings);
    return settings;
  }
  const adapter::SettingValues json = adapter::apply_settings_json(
      values["variant_options"].as<std::string>(), "--variant_options", settings);
  for (const adapter::SettingValue& value : json.all()) given.add(value);
  return settings;
}

adapter::Verbosity verbosity_option(const po::variables_map& values, adapter::Verbosity fallback) {
  if (!values.count("verbosity")) return fallback;
  const std::string level = values["verbosity"].as<std::string>();
  return adapter::parse_verbosity(level == "silent" ? "quiet" : level);
}

}  // namespace batfill::cli
