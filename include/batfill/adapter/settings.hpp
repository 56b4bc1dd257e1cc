#pragma once
// batfill's scheduler settings. Each one is declared once, in the table of
// src/adapter/settings.cpp: its key in a JSON object of settings (Batsim's config.sched-config,
// batsched's --variant_options, a Batsim 5 EDC's init string), its command-line flag and
// batsched's spelling, the function that reads and checks its value, and its --help text. Every
// way of giving a value goes through that one function, so a bad value gets the same message
// wherever it was given (docs/protocol.md#options-through-batsim).

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "batfill/adapter/event_batching.hpp"
#include "batfill/core/scheduler.hpp"

namespace batfill::adapter {

// What batfill's scheduler runs with; the defaults are the spec's behaviour.
struct Settings {
  std::string policy = "easy";  // a registered policy
  SchedulerOptions scheduler;
  EventBatching batching = EventBatching::kInstant;
  // A policy the program running batfill made instead (a Python one, docs/python.md); `policy`
  // then only names it. Its settings are these: a sched-config or an init string that gives
  // settings is refused.
  std::function<std::unique_ptr<Policy>()> make_policy;
};

// One setting's value as one source gave it, read and checked.
struct SettingValue {
  std::string key;
  std::string shown;  // how logs and conflicts show it: the name, the path or the JSON text
  std::function<void(Settings&)> apply;
};

// The values one source gives (a command line, one JSON object): at most one per key.
class SettingValues {
 public:
  // Throws std::invalid_argument when the key already holds a different value: two spellings
  // of one setting must agree.
  void add(SettingValue value);
  const std::vector<SettingValue>& all() const { return values_; }
  // Sets each value over `settings`; the settings not given keep theirs.
  void apply_to(Settings& settings) const;

 private:
  std::vector<SettingValue> values_;
};

// A command-line flag, in boost::program_options' spelling ("queue_order,o"), and its --help.
struct SettingFlag {
  std::string name;
  std::string description;
};
// Every setting's flag, each followed by batsched's spelling of it if there is one.
std::vector<SettingFlag> setting_flags();

// The text given to a command-line flag (its long name), if it was given.
using FlagText = std::function<std::optional<std::string>(const std::string& flag)>;
// The values of a command line's flags; throws std::invalid_argument like settings_from_json.
SettingValues settings_from_flags(const FlagText& given);

// A JSON object of settings: any subset of the keys. Throws std::invalid_argument for text that
// is not a JSON object, an unknown key (naming it and the valid ones), or a bad value (naming the
// setting, then what is wrong with the value).
SettingValues settings_from_json(const std::string& text);

std::vector<std::string> setting_keys();

// The one way a JSON object of settings is taken in, wherever it comes from (--sched-cfg,
// batsched's --variant_options, Batsim's config.sched-config, a Batsim 5 EDC's init string or
// its handshake): its values over
// `settings`, then the whole checked (check_settings). Throws std::invalid_argument
// "SOURCE: <what is wrong>", `source` naming where the object was given. The values given, for
// a log of what changed.
SettingValues apply_settings_json(const std::string& text, const std::string& source,
                                  Settings& settings);

// "batfill POLICY, order O, alloc A" and the prediction settings that differ from the defaults:
// how a run summary names the scheduler, so that runs without predictions say what they did.
std::string scheduler_description(const std::string& policy, const SchedulerOptions& options);

// Throws std::invalid_argument if the settings cannot run together (sjbf with a policy that
// ignores it, options the predictor does not take), so that they fail where they are given.
void check_settings(const Settings& settings);

// The settings a JSON object gives over the defaults, checked; or what is wrong with it. Never
// throws, so that a C entry point (a Batsim 5 EDC's init string) can call it.
struct SettingsOrError {
  Settings settings;
  std::string error;  // empty: the settings are valid
};
SettingsOrError parse_settings(const std::string& text) noexcept;

// A registered name a setting takes, for `batfill policies`.
struct SettingChoice {
  std::string flag;  // "backfill", "predictor", ...
  std::string name;
  std::string description;
};
// The choices of every setting whose names are registered with descriptions, in table order.
std::vector<SettingChoice> setting_choices();

}  // namespace batfill::adapter
