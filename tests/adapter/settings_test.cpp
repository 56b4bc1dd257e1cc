// The one table of scheduler settings: the JSON object of Batsim's config.sched-config and
// batsched's --variant_options, the command-line flags and batsched's spellings all read a value
// with the same function, so a value is accepted, or refused with the same message, wherever it
// is given (docs/protocol.md#options-through-batsim).

#include "batfill/adapter/settings.hpp"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "batfill/adapter/batsim_adapter.hpp"
#include "batfill/protocol/codec.hpp"

namespace batfill::adapter {
namespace {

std::string error_of(const std::string& text) {
  try {
    settings_from_json(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

Settings settings_of(const std::string& text) {
  Settings settings;
  settings_from_json(text).apply_to(settings);
  return settings;
}

// A command line giving `flags` (long name -> text).
SettingValues from_flags(const std::map<std::string, std::string>& flags) {
  return settings_from_flags([&flags](const std::string& flag) -> std::optional<std::string> {
    const auto given = flags.find(flag);
    if (given == flags.end()) return std::nullopt;
    return given->second;
  });
}

std::string flags_error(const std::map<std::string, std::string>& flags) {
  try {
    from_flags(flags);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

// What the adapter says of a SIMULATION_BEGINS carrying `sched_config`, after its position.
std::string sched_config_error(const std::string& sched_config) {
  std::ostringstream log;
  BatsimAdapter adapter("easy", {}, Log(Verbosity::kQuiet, log));
  protocol::SimulationBegins begins;
  begins.nb_compute_resources = 2;
  begins.sched_config = sched_config;
  protocol::Message request;
  request.events.push_back({0, begins});
  try {
    adapter.exchange(request);
  } catch (const protocol::ProtocolError& e) {
    const std::string message = e.what();
    const std::string field = "field 'config.sched-config': ";
    return message.substr(message.find(field) + field.size());
  }
  return "(no error)";
}

TEST(Settings, ReadsAnySubsetOfTheKeys) {
  const Settings all =
      settings_of(R"({"backfill":"conservative","order":"lcfs","alloc":"contiguous"})");
  EXPECT_EQ(all.policy, "conservative");
  EXPECT_EQ(all.scheduler.order, QueueOrder::kLcfs);
  EXPECT_EQ(all.scheduler.allocation, AllocationRule::kContiguous);
  const Settings none = settings_of("{}");
  EXPECT_EQ(none.policy, "easy");
  EXPECT_EQ(none.scheduler.order, QueueOrder::kFcfs);
  EXPECT_EQ(none.batching, EventBatching::kInstant);
}

TEST(Settings, ReadsThePredictionKeys) {
  const Settings all = settings_of(
      R"({"predictor":"sgd","predictor_options":{"eta":5000,"lambda":4e9},"corrector":"none",)"
      R"("backfill_order":"sjbf","batching":"per-event"})");
  EXPECT_EQ(all.scheduler.predictor, "sgd");
  EXPECT_EQ(all.scheduler.predictor_options,
            (PredictorOptions{{"eta", "5000"}, {"lambda", "4000000000.0"}}));
  EXPECT_EQ(all.scheduler.corrector, "");  // none
  EXPECT_EQ(all.scheduler.backfill_order, BackfillOrder::kShortestFirst);
  EXPECT_EQ(all.batching, EventBatching::kPerEvent);
}

TEST(Settings, ReadsTheQueuesInline) {
  const Settings settings =
      settings_of(R"({"queues":{"queues":[{"name":"a","ids":[1]}],"default":"a"}})");
  ASSERT_NE(settings.scheduler.queues, nullptr);
  EXPECT_EQ(settings.scheduler.queues->default_queue, "a");
  EXPECT_EQ(error_of(R"({"queues":{"queues":[{"name":"a","bogus":1}]}})"),
            "setting 'queues' (--queues): unknown key 'queues[0].bogus' (valid: name, ids, "
            "priority, backfill, slot_reserve, max_reserve_time, slot_limit, user_slot_limit)");
}

TEST(Settings, UnknownKeyNamesItAndTheValidOnes) {
  EXPECT_EQ(error_of(R"({"foo":1})"),
            "unknown key 'foo' (valid: backfill, order, alloc, predictor, "
            "predictor_options, corrector, backfill_order, queues, batching, power_off_after, "
            "power_switch_on, power_switch_off, power_keep_awake, pstate_sleep, pstate_compute)");
}

TEST(Settings, BadValuesNameTheSetting) {
  EXPECT_NE(error_of("fast please").find("must be a JSON object of batfill options"),
            std::string::npos);
  EXPECT_EQ(error_of(R"({"order":3})"), "setting 'order' (--order): must be a string");
  EXPECT_EQ(error_of(R"({"batching":"per-second"})"),
            "setting 'batching' (--batching): unknown event batching 'per-second' (valid: "
            "instant, per-event)");
  EXPECT_EQ(error_of(R"({"predictor_options":[1]})"),
            "setting 'predictor_options' (--predictor-options): must be a JSON object");
  EXPECT_NE(error_of(R"({"backfill":"bogus"})").find("unknown backfilling policy 'bogus'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"predictor":"oracle"})").find("unknown predictor 'oracle'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"corrector":"halving"})").find("unknown corrector 'halving'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"backfill_order":"lpt"})").find("unknown backfill order 'lpt'"),
            std::string::npos);
}

// One bad value per setting, given as a flag, in a JSON object (sched-config, variant_options)
// and in a Batsim SIMULATION_BEGINS: the message is the same, word for word.
TEST(Settings, BadValueGetsTheSameMessageEverywhere) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"backfill", "bogus"},        {"order", "random"},
      {"alloc", "scattered"},       {"predictor", "oracle"},
      {"predictor_options", "[1]"}, {"corrector", "halving"},
      {"backfill_order", "lpt"},    {"queues", "/nonexistent.json"},
      {"batching", "per-second"}};
  const std::vector<SettingFlag> flags = setting_flags();
  for (const auto& [key, value] : bad) {
    std::string flag = key;  // the flag is the key with dashes
    for (char& c : flag) c = c == '_' ? '-' : c;
    const std::string from_flag = flags_error({{flag, value}});
    const std::string json =
        "{\"" + key + "\":" + (value == "[1]" ? value : "\"" + value + "\"") + "}";
    EXPECT_EQ(from_flag.rfind("setting '" + key + "' (--" + flag + "): ", 0), 0u) << from_flag;
    EXPECT_EQ(error_of(json), from_flag) << key;
    EXPECT_EQ(parse_settings(json).error, from_flag) << key;
    EXPECT_EQ(sched_config_error(json), from_flag) << key;
  }
  EXPECT_EQ(sched_config_error(R"({"foo":1})"), error_of(R"({"foo":1})"));
  EXPECT_EQ(parse_settings(R"({"foo":1})").error, error_of(R"({"foo":1})"));
}

TEST(Settings, BatschedSpellingsMeanBatfillNames) {
  Settings settings;
  from_flags({{"variant", "easy_bf"}, {"queue_order", "asc_size"}, {"policy", "basic"}})
      .apply_to(settings);
  EXPECT_EQ(settings.policy, "easy-classic");
  EXPECT_EQ(settings.scheduler.order, QueueOrder::kAscSize);
  EXPECT_EQ(settings.scheduler.allocation, AllocationRule::kLowest);
  EXPECT_NE(flags_error({{"variant", "fillr"}})
                .find("setting 'backfill' (--variant): unknown "
                      "variant 'fillr' (batsched names: easy_bf"),
            std::string::npos);
  EXPECT_NE(flags_error({{"policy", "easy"}}).find("basic, contiguous"), std::string::npos);
}

// Idle power-off (docs/semantics.md#idle-power-off-power_off_after): its settings, from JSON or
// from flags, and the checks of the whole.
TEST(Settings, ReadsThePowerSettings) {
  const Settings json = settings_of(
      R"({"power_off_after":60,"power_switch_on":"151.52","power_switch_off":6.1,)"
      R"("power_keep_awake":2,"pstate_sleep":13,"pstate_compute":0})");
  const PowerOptions& power = json.scheduler.power;
  EXPECT_EQ(power.off_after, from_seconds(60));
  EXPECT_EQ(power.switch_on, 151'520'000);
  EXPECT_EQ(power.switch_off, 6'100'000);
  EXPECT_EQ(power.keep_awake, 2);
  EXPECT_EQ(power.sleep_pstate, 13);
  EXPECT_EQ(power.compute_pstate, 0);
  Settings flags;
  from_flags({{"power-off-after", "never"}, {"pstate-sleep", "13"}}).apply_to(flags);
  EXPECT_FALSE(flags.scheduler.power.enabled());
  EXPECT_FALSE(Settings().scheduler.power.enabled());  // off by default
  EXPECT_EQ(error_of(R"({"power_off_after":-1})"),
            "setting 'power_off_after' (--power-off-after): must be a number of seconds >= 0, "
            "got -1");
  EXPECT_EQ(error_of(R"({"pstate_sleep":"x"})"),
            "setting 'pstate_sleep' (--pstate-sleep): must be an integer >= 0, got 'x'");
  EXPECT_EQ(parse_settings(R"({"power_off_after":0})").error,
            "setting 'power_off_after' (--power-off-after) needs the sleep pstate: setting "
            "'pstate_sleep' (--pstate-sleep)");
  EXPECT_EQ(parse_settings(R"({"power_off_after":0,"pstate_sleep":0})").error,
            "settings 'pstate_sleep' and 'pstate_compute' are both 0: they must differ");
}

// batsched's sleeper and energy_watcher run as batfill's sequential policy with power settings;
// its other energy variants are refused with what batfill runs instead.
TEST(Settings, BatschedEnergyVariants) {
  Settings sleeper;
  from_flags({{"variant", "sleeper"}, {"pstate-sleep", "13"}}).apply_to(sleeper);
  EXPECT_EQ(sleeper.policy, "sequential");
  EXPECT_EQ(sleeper.scheduler.power.off_after, 0);
  EXPECT_EQ(sleeper.scheduler.power.sleep_pstate, 13);
  Settings later;  // a power setting given too applies over the variant's
  from_flags({{"variant", "sleeper"}, {"power-off-after", "30"}}).apply_to(later);
  EXPECT_EQ(later.scheduler.power.off_after, from_seconds(30));
  Settings watcher;
  from_flags({{"variant", "energy_watcher"}}).apply_to(watcher);
  EXPECT_EQ(watcher.policy, "sequential");
  EXPECT_TRUE(watcher.scheduler.power.watch_energy);
  EXPECT_FALSE(watcher.scheduler.power.enabled());
  const std::string refused = flags_error({{"variant", "energy_bf_idle_sleeper"}});
  EXPECT_NE(refused.find("batsched's energy variant 'energy_bf_idle_sleeper' is not supported; "
                         "batfill's idle power-off (power_off_after"),
            std::string::npos)
      << refused;
  EXPECT_NE(refused.find("batsched names: easy_bf, conservative_bf, fcfs, fcfs_fast, sleeper, "
                         "energy_watcher, easy_bf_fast, filler, sequencer, rejecter, "
                         "waiting_time_estimator, random; batfill policies: none, easy"),
            std::string::npos)
      << refused;
}

// batsched's other variants (docs/usage.md#batscheds-variants): each name batfill runs means a
// policy, random also a machine choice; the ones it does not run are refused with the reason and
// the accepted names.
TEST(Settings, BatschedOtherVariants) {
  const std::vector<std::pair<std::string, std::string>> policies = {
      {"easy_bf_fast", "easy-bf-fast"},
      {"filler", "filler"},
      {"sequencer", "sequential"},
      {"rejecter", "rejecter"},
      {"waiting_time_estimator", "rejecter"},
      {"random", "filler"}};
  for (const auto& [variant, policy] : policies) {
    Settings settings;
    from_flags({{"variant", variant}}).apply_to(settings);
    EXPECT_EQ(settings.policy, policy) << variant;
    EXPECT_EQ(settings.scheduler.allocation,
              variant == "random" ? AllocationRule::kRandom : AllocationRule::kLowest)
        << variant;
  }
  for (const std::string variant : {"killer", "killer2", "submitter", "crasher"}) {
    const std::string refused = flags_error({{"variant", variant}});
    EXPECT_NE(refused.find("batsched's variant '" + variant + "' is not supported: "),
              std::string::npos)
        << refused;
    EXPECT_NE(refused.find("batsched names: easy_bf"), std::string::npos) << refused;
  }
  EXPECT_NE(flags_error({{"variant", "killer"}}).find("kills jobs"), std::string::npos);
  EXPECT_EQ(error_of(R"({"fraction_of_machines_to_use":0.5})")
                .rfind("batsched's option 'fraction_of_machines_to_use' is not supported: filler's "
                       "jobs always get the machines they request (valid: backfill, ",
                       0),
            0u);
}

TEST(Settings, TwoSpellingsOfOneSettingMustAgree) {
  EXPECT_EQ(flags_error({{"backfill", "easy"}, {"variant", "conservative_bf"}}),
            "conflicting values of setting 'backfill': 'easy' and 'conservative-classic'");
  EXPECT_EQ(flags_error({{"backfill", "easy-classic"}, {"variant", "easy_bf"}}), "(no error)");
  EXPECT_EQ(flags_error({{"alloc", "lowest"}, {"policy", "basic"}}), "(no error)");
  // The same options, spelled differently, are one value.
  SettingValues given = from_flags({{"predictor-options", R"({"eta": 5000})"}});
  const SettingValues object = settings_from_json(R"({"predictor_options":{"eta":5000}})");
  EXPECT_NO_THROW(given.add(object.all().at(0)));
  EXPECT_EQ(error_of(R"({"order":"fcfs","order":"lcfs"})"),
            "conflicting values of setting 'order': 'fcfs' and 'lcfs'");
}

TEST(Settings, ParseSettingsChecksTheCombination) {
  const SettingsOrError good = parse_settings(R"({"backfill":"conservative"})");
  EXPECT_EQ(good.error, "");
  EXPECT_EQ(good.settings.policy, "conservative");
  const SettingsOrError sjbf = parse_settings(R"({"backfill":"easy","backfill_order":"sjbf"})");
  EXPECT_NE(sjbf.error.find("needs a policy that orders its candidates"), std::string::npos)
      << sjbf.error;
  EXPECT_NE(parse_settings("not json").error.find("must be a JSON object"), std::string::npos);
}

// --help and `batfill policies` come from the same rows.
TEST(Settings, FlagsAndChoicesComeFromTheTable) {
  std::vector<std::string> names;
  for (const SettingFlag& flag : setting_flags()) names.push_back(flag.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "backfill", "variant,v", "order", "queue_order,o", "alloc", "policy,p",
                       "predictor", "predictor-options", "corrector", "backfill-order", "queues",
                       "batching", "power-off-after", "power-switch-on", "power-switch-off",
                       "power-keep-awake", "pstate-sleep", "pstate-compute"}));
  EXPECT_NE(setting_flags()[0].description.find("conservative-classic"), std::string::npos);
  const std::vector<SettingChoice> choices = setting_choices();
  ASSERT_FALSE(choices.empty());
  EXPECT_EQ(choices.front().flag, "backfill");
  EXPECT_EQ(choices.back().flag, "corrector");
}

}  // namespace
}  // namespace batfill::adapter
