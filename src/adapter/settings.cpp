#include "batfill/adapter/settings.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

#include "batfill/adapter/queue_config_json.hpp"
#include "batfill/common/json_document.hpp"
#include "batfill/common/text.hpp"
#include "batfill/core/machine_pool.hpp"
#include "batfill/core/policy_registry.hpp"
#include "batfill/core/prediction.hpp"
#include "batfill/core/queue_order.hpp"

namespace batfill::adapter {
namespace {

// ---- Reading one value. Each reader checks the value where it is given, so that a typo fails
// before any simulation starts, and says what the value sets.

// The JSON text of a value, compact: how an object value is shown.
std::string json_text(const rapidjson::Value& value) {
  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> writer(text);
  value.Accept(writer);
  return text.GetString();
}

// A command-line text as the JSON string it would be in a JSON object of settings.
rapidjson::Value string_value(const std::string& text) {
  return rapidjson::Value(
      rapidjson::StringRef(text.data(), static_cast<rapidjson::SizeType>(text.size())));
}

std::string name_of(const rapidjson::Value& value) {
  if (!value.IsString()) throw std::invalid_argument("must be a string");
  return value.GetString();
}

// batsched's variants that batfill runs as a policy with other settings: the energy ones
// (docs/usage.md#energy-batscheds-sleeper-and-energy_watcher), a policy with power settings, and
// random, filler with random machines. Any setting given as well applies over them.
struct DropIn {
  const char* name;
  void (*apply)(Settings& settings);
};

const std::vector<DropIn>& drop_ins() {
  static const std::vector<DropIn> names = {
      {"sleeper",
       [](Settings& settings) {
         settings.policy = "sequential";
         settings.scheduler.power.off_after = 0;
         settings.scheduler.power.keep_awake = 0;
       }},
      {"energy_watcher",
       [](Settings& settings) {
         settings.policy = "sequential";
         settings.scheduler.power.watch_energy = true;
       }},
      // batsched's random needs Batsim's compute sharing; batfill never shares a machine, so
      // its jobs wait for free machines (docs/usage.md#batscheds-variants).
      {"random",
       [](Settings& settings) {
         settings.policy = "filler";
         settings.scheduler.allocation = AllocationRule::kRandom;
       }},
  };
  return names;
}

SettingValue read_policy(const rapidjson::Value& value) {
  const std::string given = name_of(value);
  for (const DropIn& drop_in : drop_ins()) {
    if (given == drop_in.name) return {"", given, drop_in.apply};
  }
  const std::string name = find_policy(given).name;
  return {"", name, [name](Settings& settings) { settings.policy = name; }};
}

// A non-negative number of seconds: a JSON number, or its text.
Time seconds_of(const rapidjson::Value& value) {
  const std::string text = value.IsString() ? value.GetString() : value.IsNumber() ? json_text(value) : "";
  const std::optional<Time> seconds = parse_decimal_seconds(text);
  if (!seconds || *seconds < 0) {
    throw std::invalid_argument("must be a number of seconds >= 0, got " +
                                (value.IsString() ? quoted(text) : json_text(value)));
  }
  return *seconds;
}

// A non-negative integer: a JSON integer, or its text.
int count_of(const rapidjson::Value& value) {
  if (value.IsInt() && value.GetInt() >= 0) return value.GetInt();
  if (value.IsString()) {
    const std::string text = value.GetString();
    if (!text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos) {
      return std::stoi(text);
    }
  }
  throw std::invalid_argument("must be an integer >= 0, got " +
                              (value.IsString() ? quoted(value.GetString()) : json_text(value)));
}

SettingValue read_power_off_after(const rapidjson::Value& value) {
  if (value.IsString() && std::string(value.GetString()) == "never") {
    return {"", "never", [](Settings& settings) { settings.scheduler.power.off_after = kNever; }};
  }
  const Time after = seconds_of(value);
  return {"", format_seconds(after),
          [after](Settings& settings) { settings.scheduler.power.off_after = after; }};
}

// A duration or a count of idle power-off's options.
SettingValue power_seconds(const rapidjson::Value& value, Time PowerOptions::*option) {
  const Time time = seconds_of(value);
  return {"", format_seconds(time),
          [time, option](Settings& settings) { settings.scheduler.power.*option = time; }};
}

SettingValue power_count(const rapidjson::Value& value, int PowerOptions::*option) {
  const int count = count_of(value);
  return {"", std::to_string(count),
          [count, option](Settings& settings) { settings.scheduler.power.*option = count; }};
}

SettingValue read_power_switch_on(const rapidjson::Value& value) {
  return power_seconds(value, &PowerOptions::switch_on);
}
SettingValue read_power_switch_off(const rapidjson::Value& value) {
  return power_seconds(value, &PowerOptions::switch_off);
}
SettingValue read_power_keep_awake(const rapidjson::Value& value) {
  return power_count(value, &PowerOptions::keep_awake);
}
SettingValue read_pstate_sleep(const rapidjson::Value& value) {
  return power_count(value, &PowerOptions::sleep_pstate);
}
SettingValue read_pstate_compute(const rapidjson::Value& value) {
  return power_count(value, &PowerOptions::compute_pstate);
}

SettingValue read_order(const rapidjson::Value& value) {
  const QueueOrder order = parse_queue_order(name_of(value));
  return {"", to_string(order), [order](Settings& settings) { settings.scheduler.order = order; }};
}

SettingValue read_alloc(const rapidjson::Value& value) {
  const AllocationRule rule = parse_allocation_rule(name_of(value));
  return {"", to_string(rule),
          [rule](Settings& settings) { settings.scheduler.allocation = rule; }};
}

SettingValue read_predictor(const rapidjson::Value& value) {
  const std::string name = find_predictor(name_of(value)).name;
  return {"", name, [name](Settings& settings) { settings.scheduler.predictor = name; }};
}

// An option's value is kept as text: a number as the shortest text that reads back the same.
std::string option_text(const std::string& key, const rapidjson::Value& value) {
  if (value.IsString()) return value.GetString();
  if (value.IsNumber()) return json_text(value);
  throw std::invalid_argument("option " + quoted(key) + " must be a number or a string");
}

PredictorOptions predictor_options_of(const rapidjson::Value& object) {
  if (!object.IsObject()) throw std::invalid_argument("must be a JSON object");
  PredictorOptions options;
  for (const auto& member : object.GetObject()) {
    const std::string key = member.name.GetString();
    options[key] = option_text(key, member.value);
  }
  return options;
}

std::string shown(const PredictorOptions& options) {
  std::vector<std::string> pairs;
  for (const auto& [key, value] : options) pairs.push_back(key + "=" + value);
  return "{" + join(pairs) + "}";
}

// An object, or its JSON text (as given on the command line).
SettingValue read_predictor_options(const rapidjson::Value& value) {
  rapidjson::Document parsed;
  if (value.IsString()) {
    const std::string_view text(value.GetString(), value.GetStringLength());
    if (const rapidjson::ParseResult result = parse_json(parsed, text); result.IsError()) {
      throw std::invalid_argument("must be a JSON object, but it is " +
                                  json_error_text(result, text));
    }
  }
  const PredictorOptions options = predictor_options_of(value.IsString() ? parsed : value);
  return {"", shown(options),
          [options](Settings& settings) { settings.scheduler.predictor_options = options; }};
}

// "none", or a registered corrector.
SettingValue read_corrector(const rapidjson::Value& value) {
  const std::string name = name_of(value);
  const std::string corrector = name == "none" ? "" : find_corrector(name).name;
  return {"", name, [corrector](Settings& settings) { settings.scheduler.corrector = corrector; }};
}

SettingValue read_backfill_order(const rapidjson::Value& value) {
  const BackfillOrder order = parse_backfill_order(name_of(value));
  return {"", to_string(order),
          [order](Settings& settings) { settings.scheduler.backfill_order = order; }};
}

// The configuration itself, or the path of its file (as given on the command line).
SettingValue read_queues(const rapidjson::Value& value) {
  const auto queues = std::make_shared<const QueueConfig>(
      value.IsString() ? read_queue_config(value.GetString()) : queue_config_of(value));
  return {"", value.IsString() ? value.GetString() : json_text(value),
          [queues](Settings& settings) { settings.scheduler.queues = queues; }};
}

SettingValue read_batching(const rapidjson::Value& value) {
  const std::string name = name_of(value);
  const EventBatching batching = parse_event_batching(name);
  return {"", name, [batching](Settings& settings) { settings.batching = batching; }};
}

// ---- batsched's spellings (its command line) and what they mean in batfill's names.

// batsched's variant names for the algorithms batfill implements (batsched's `-v`).
const std::vector<std::pair<std::string, std::string>>& batsched_variants() {
  static const std::vector<std::pair<std::string, std::string>> variants = {
      {"easy_bf", "easy-classic"},
      {"conservative_bf", "conservative-classic"},
      {"fcfs", "none"},
      {"fcfs_fast", "none"},
      {"sleeper", "sleeper"},
      {"energy_watcher", "energy_watcher"},
      {"easy_bf_fast", "easy-bf-fast"},
      {"filler", "filler"},
      {"sequencer", "sequential"},
      {"rejecter", "rejecter"},
      {"waiting_time_estimator", "rejecter"},
      {"random", "random"},
  };
  return variants;
}

std::vector<std::string> batsched_variant_names() {
  std::vector<std::string> names;
  for (const auto& variant : batsched_variants()) names.push_back(variant.first);
  return names;
}

// batsched 1.4's energy variants batfill does not run; docs/usage.md says which setting serves
// the same purpose.
const std::vector<std::string>& batsched_energy_variants() {
  static const std::vector<std::string> names = {
      "energy_bf",          "energy_bf_dicho",           "energy_bf_idle_sleeper",
      "energy_bf_monitoring", "energy_bf_monitoring_inertial", "energy_bf_subpart_sleeper",
      "easy_bf_plot_liquid_load_horizon"};
  return names;
}

// Names batfill refuses, each with the reason.
using Refusals = std::vector<std::pair<std::string, const char*>>;

// The reason `name` is refused; null if it is not.
const char* refusal_of(const Refusals& refusals, const std::string& name) {
  for (const auto& [refused, why] : refusals) {
    if (refused == name) return why;
  }
  return nullptr;
}

// Why batfill does not run one of batsched 1.4's other variants
// (docs/usage.md#batscheds-variants); null for any other name.
const char* batsched_variant_not_run(const std::string& variant) {
  static const Refusals reasons = {
      {"crasher", "it is a test of Batsim's handling of a crashing scheduler"},
      {"killer", "it kills jobs, and batfill's scheduler makes no kill decisions yet"},
      {"killer2", "it kills jobs, and batfill's scheduler makes no kill decisions yet"},
      {"submitter", "it submits jobs, and batfill's scheduler makes no job registrations yet"},
  };
  return refusal_of(reasons, variant);
}

// Why batfill does not take an option of a batsched variant it runs
// (docs/usage.md#batscheds-variants); null for any other key.
const char* batsched_option_not_taken(const std::string& key) {
  static const Refusals reasons = {
      {"fraction_of_machines_to_use", "filler's jobs always get the machines they request"},
      {"custom_mapping", "filler maps no executors to machines"},
      {"set_job_metadata", "batfill's scheduler sets no job metadata"},
  };
  return refusal_of(reasons, key);
}

// A batsched variant, or a batfill policy name.
std::string policy_for_variant(const std::string& variant) {
  for (const auto& [batsched_name, policy] : batsched_variants()) {
    if (variant == batsched_name) return policy;
  }
  for (const PolicyInfo& policy : registered_policies()) {
    if (policy.name == variant) return variant;
  }
  const std::string supported = "batsched names: " + join(batsched_variant_names()) +
                                "; batfill policies: " + join(policy_names());
  if (const char* why = batsched_variant_not_run(variant)) {
    throw std::invalid_argument("batsched's variant " + quoted(variant) + " is not supported: " +
                                why + ", see docs/usage.md (" + supported + ")");
  }
  const auto& energy = batsched_energy_variants();
  if (std::find(energy.begin(), energy.end(), variant) != energy.end()) {
    throw std::invalid_argument(
        "batsched's energy variant " + quoted(variant) +
        " is not supported; batfill's idle power-off (power_off_after, under any policy) serves "
        "its purpose, see docs/usage.md (" + supported + ")");
  }
  throw std::invalid_argument("unknown variant " + quoted(variant) + " (" + supported + ")");
}

// batsched's --policy is the machine choice, never the algorithm.
std::string allocation_for_machine_choice(const std::string& choice) {
  if (choice == "basic") return "lowest";
  if (choice == "contiguous") return choice;
  throw std::invalid_argument("unknown machine choice " + quoted(choice) +
                              " (batsched's: basic, contiguous; the algorithm is chosen with "
                              "--backfill or -v)");
}

std::string same_name(const std::string& name) { return name; }

struct BatschedSpelling {
  const char* flag;  // boost::program_options' spelling; null: batsched has none
  const char* help;  // "{names}" stands for names()
  std::vector<std::string> (*names)();
  std::string (*to_batfill)(const std::string& value);
};

const BatschedSpelling kVariant = {"variant,v",
                                   "batsched spelling of --backfill: {names}, or a batfill policy",
                                   batsched_variant_names, policy_for_variant};
const BatschedSpelling kQueueOrder = {"queue_order,o", "batsched spelling of --order", nullptr,
                                      same_name};
const BatschedSpelling kMachineChoice = {
    "policy,p", "batsched's machine choice: basic (= --alloc lowest) or contiguous", nullptr,
    allocation_for_machine_choice};
const BatschedSpelling kNone = {nullptr, nullptr, nullptr, nullptr};  // batsched has none

// ---- The registered names `batfill policies` lists.

// Policies, predictors and correctors are registered with a name and a description.
template <typename Info>
std::vector<SettingChoice> choices_of(const std::vector<Info>& registered) {
  std::vector<SettingChoice> choices;
  for (const Info& info : registered) choices.push_back({"", info.name, info.description});
  return choices;
}

std::vector<SettingChoice> policy_choices() { return choices_of(registered_policies()); }
std::vector<SettingChoice> predictor_choices() { return choices_of(registered_predictors()); }
std::vector<SettingChoice> corrector_choices() { return choices_of(registered_correctors()); }

// ---- The table.

struct Setting {
  const char* key;   // in a JSON object of settings
  const char* flag;  // on the command line, --flag
  BatschedSpelling batsched;
  SettingValue (*read)(const rapidjson::Value& value);  // checks; says what the value sets
  std::vector<SettingChoice> (*choices)();              // registered names; null: none
  const char* help;                                     // "{names}": the names of choices()
};

// The order of the rows is the order of --help, of the valid keys in messages, and of
// `batfill policies`.
const std::vector<Setting>& table() {
  static const std::vector<Setting> rows = {
      // key, flag, batsched's spelling, reader, registered names,
      //   --help
      {"backfill", "backfill", kVariant, read_policy, policy_choices,
       "policy: {names} (default: easy)"},
      {"order", "order", kQueueOrder, read_order, nullptr,  //
       "queue order (default: fcfs)"},
      {"alloc", "alloc", kMachineChoice, read_alloc, nullptr,
       "machine choice: lowest (default), contiguous or random"},
      {"predictor", "predictor", kNone, read_predictor, predictor_choices,
       "runtime prediction used for planning: {names} (default: requested, the walltime)"},
      {"predictor_options", "predictor-options", kNone, read_predictor_options, nullptr,
       "JSON object of the predictor's options"},
      {"corrector", "corrector", kNone, read_corrector, corrector_choices,
       "new prediction for a job that outlives its own: none (default), {names}"},
      {"backfill_order", "backfill-order", kNone, read_backfill_order, nullptr,
       "order of the backfill candidates: queue (default) or sjbf (shortest predicted first)"},
      {"queues", "queues", kNone, read_queues, nullptr,
       "JSON file of LSF-style queues: priorities, reservations, backfill, slot limits "
       "(docs/semantics.md#queues---queues)"},
      {"batching", "batching", kNone, read_batching, nullptr,
       "how the events of one Batsim request are handled: instant (default: completions, then "
       "submissions, one pass) or per-event (one pass per event, submissions first, "
       "completions in start order, jobs at their planned end freed first, as pyss)"},
      {"power_off_after", "power-off-after", kNone, read_power_off_after, nullptr,
       "idle power-off: seconds a machine stays idle before it is switched off, or never "
       "(default) (docs/semantics.md#idle-power-off-power_off_after)"},
      {"power_switch_on", "power-switch-on", kNone, read_power_switch_on, nullptr,
       "seconds a switch on takes, as the scheduler plans it (default: 0)"},
      {"power_switch_off", "power-switch-off", kNone, read_power_switch_off, nullptr,
       "seconds a switch off takes, as the scheduler plans it (default: 0)"},
      {"power_keep_awake", "power-keep-awake", kNone, read_power_keep_awake, nullptr,
       "machines never switched off (default: 0)"},
      {"pstate_sleep", "pstate-sleep", kNone, read_pstate_sleep, nullptr,
       "the platform's sleep pstate, which idle power-off switches to (required with it)"},
      {"pstate_compute", "pstate-compute", kNone, read_pstate_compute, nullptr,
       "the platform's compute pstate, which idle power-off switches back to (default: 0)"},
  };
  return rows;
}

// ---- Using the table.

std::string with_names(const std::string& help, const std::vector<std::string>& names) {
  const std::size_t at = help.find("{names}");
  if (at == std::string::npos) return help;
  return help.substr(0, at) + join(names) + help.substr(at + 7);
}

std::vector<std::string> names_of(const std::vector<SettingChoice>& choices) {
  std::vector<std::string> names;
  for (const SettingChoice& choice : choices) names.push_back(choice.name);
  return names;
}

std::string long_name(const std::string& flag) { return flag.substr(0, flag.find(',')); }

// Every message about a value starts so, wherever the value was given.
std::string setting_name(const Setting& setting, const std::string& flag) {
  return "setting " + quoted(setting.key) + " (--" + flag + ")";
}

SettingValue read_setting(const Setting& setting, const rapidjson::Value& value) {
  try {
    SettingValue read = setting.read(value);
    read.key = setting.key;
    return read;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(setting_name(setting, setting.flag) + ": " + e.what());
  }
}

SettingValue read_batsched_spelling(const Setting& setting, const std::string& text) {
  const std::string flag = long_name(setting.batsched.flag);
  std::string name;
  try {
    name = setting.batsched.to_batfill(text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(setting_name(setting, flag) + ": " + e.what());
  }
  return read_setting(setting, string_value(name));
}

const Setting* find_setting(const std::string& key) {
  for (const Setting& setting : table()) {
    if (key == setting.key) return &setting;
  }
  return nullptr;
}

}  // namespace

void SettingValues::add(SettingValue value) {
  for (const SettingValue& given : values_) {
    if (given.key != value.key) continue;
    if (given.shown != value.shown) {
      throw std::invalid_argument("conflicting values of setting " + quoted(value.key) + ": " +
                                  quoted(given.shown) + " and " + quoted(value.shown));
    }
    return;
  }
  values_.push_back(std::move(value));
}

void SettingValues::apply_to(Settings& settings) const {
  for (const SettingValue& value : values_) value.apply(settings);
}

std::vector<std::string> setting_keys() {
  std::vector<std::string> keys;
  for (const Setting& setting : table()) keys.emplace_back(setting.key);
  return keys;
}

std::vector<SettingFlag> setting_flags() {
  std::vector<SettingFlag> flags;
  for (const Setting& setting : table()) {
    const std::vector<std::string> names =
        setting.choices ? names_of(setting.choices()) : std::vector<std::string>{};
    flags.push_back({setting.flag, with_names(setting.help, names)});
    const BatschedSpelling& batsched = setting.batsched;
    if (batsched.flag == nullptr) continue;
    flags.push_back(
        {batsched.flag, with_names(batsched.help, batsched.names ? batsched.names()
                                                                 : std::vector<std::string>{})});
  }
  return flags;
}

SettingValues settings_from_flags(const FlagText& given) {
  SettingValues values;
  for (const Setting& setting : table()) {
    if (const auto text = given(setting.flag)) {
      values.add(read_setting(setting, string_value(*text)));
    }
    if (setting.batsched.flag == nullptr) continue;
    if (const auto text = given(long_name(setting.batsched.flag))) {
      values.add(read_batsched_spelling(setting, *text));
    }
  }
  return values;
}

SettingValues settings_from_json(const std::string& text) {
  rapidjson::Document document;
  if (const rapidjson::ParseResult result = parse_json(document, text); result.IsError()) {
    throw std::invalid_argument("must be a JSON object of batfill options, but it is " +
                                json_error_text(result, text));
  }
  if (!document.IsObject()) {
    throw std::invalid_argument("must be a JSON object of batfill options, got " + excerpt(text));
  }
  SettingValues values;
  for (const auto& member : document.GetObject()) {
    const std::string key = member.name.GetString();
    const Setting* setting = find_setting(key);
    if (setting == nullptr) {
      const char* why = batsched_option_not_taken(key);
      throw std::invalid_argument(
          (why ? "batsched's option " + quoted(key) + " is not supported: " + why + " ("
               : "unknown key " + quoted(key) + " (") +
          "valid: " + join(setting_keys()) + ")");
    }
    values.add(read_setting(*setting, member.value));
  }
  return values;
}

std::string scheduler_description(const std::string& policy, const SchedulerOptions& options) {
  std::string name = "batfill " + policy + ", order " + to_string(options.order) + ", alloc " +
                     to_string(options.allocation);
  if (options.predictor != "requested") name += ", predictor " + options.predictor;
  if (!options.corrector.empty()) name += ", corrector " + options.corrector;
  if (options.backfill_order != BackfillOrder::kQueue) {
    name += ", backfill order " + to_string(options.backfill_order);
  }
  if (options.power.enabled()) {
    name += ", power off after " + format_seconds(options.power.off_after) + " s";
  }
  return name;
}

void check_settings(const Settings& settings) {
  check_options(
      *(settings.make_policy ? settings.make_policy() : make_policy(settings.policy)),
      settings.scheduler);
  const PowerOptions& power = settings.scheduler.power;
  if (power.enabled() && power.sleep_pstate < 0) {
    throw std::invalid_argument(
        "setting 'power_off_after' (--power-off-after) needs the sleep pstate: setting "
        "'pstate_sleep' (--pstate-sleep)");
  }
  if (power.enabled() && power.sleep_pstate == power.compute_pstate) {
    throw std::invalid_argument("settings 'pstate_sleep' and 'pstate_compute' are both " +
                                std::to_string(power.sleep_pstate) + ": they must differ");
  }
}

SettingValues apply_settings_json(const std::string& text, const std::string& source,
                                  Settings& settings) {
  try {
    SettingValues given = settings_from_json(text);
    Settings applied = settings;
    given.apply_to(applied);
    check_settings(applied);
    settings = std::move(applied);
    return given;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(source.empty() ? e.what() : source + ": " + e.what());
  }
}

SettingsOrError parse_settings(const std::string& text) noexcept {
  SettingsOrError result;
  try {
    apply_settings_json(text, "", result.settings);
  } catch (const std::exception& e) {
    result.error = e.what();
  }
  return result;
}

std::vector<SettingChoice> setting_choices() {
  std::vector<SettingChoice> choices;
  for (const Setting& setting : table()) {
    if (setting.choices == nullptr) continue;
    for (SettingChoice choice : setting.choices()) {
      choice.flag = setting.flag;
      choices.push_back(std::move(choice));
    }
  }
  return choices;
}

}  // namespace batfill::adapter
