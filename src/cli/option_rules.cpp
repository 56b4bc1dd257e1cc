#include "option_rules.hpp"

#include <stdexcept>

#include "batfill/adapter/session.hpp"
#include "batfill/adapter/settings.hpp"

namespace batfill::cli {
namespace po = boost::program_options;
namespace {

bool given(const po::variables_map& values, const std::string& option) {
  return values.count(option) != 0 && !values[option].defaulted();
}

std::string flags(const std::vector<std::string>& options) {
  std::string text;
  for (const std::string& option : options) {
    text += (text.empty() ? "--" : " or --") + option;
  }
  return text;
}

}  // namespace

void check_option_rules(const po::variables_map& values, const std::vector<OptionRule>& rules) {
  for (const OptionRule& rule : rules) {
    if (!given(values, rule.option)) continue;
    bool needed_found = rule.needs_one_of.empty();
    for (const std::string& other : rule.needs_one_of) needed_found |= given(values, other);
    if (!needed_found) {
      throw std::invalid_argument("--" + rule.option + " needs " + flags(rule.needs_one_of) + ": " +
                                  rule.why);
    }
    for (const std::string& other : rule.not_with) {
      if (given(values, other)) {
        throw std::invalid_argument("--" + rule.option + " means nothing with --" + other + ": " +
                                    rule.why);
      }
    }
  }
}

std::vector<OptionRule> simulate_option_rules() {
  std::vector<OptionRule> rules = {
      {"scheduler", {}, {"scheduler-library"}, "give one decision process, not two"},
      {"scheduler-init",
       {"scheduler-library", "protocol"},
       {},
       "it is the init string of a Batsim 5 EDC, a library or a process (--protocol batsim5)"},
      {"protocol", {"scheduler"}, {}, "it says what the external scheduler speaks"},
      {"timeout", {"scheduler"}, {}, "it bounds the wait for an external scheduler's replies"},
      {"sched-cfg",
       {},
       {"scheduler-library"},
       "it is Batsim 4's; give a Batsim 5 EDC library its settings with --scheduler-init"},
      {"forward-unknown-events", {"events"}, {}, "it says which events of --events to send"},
      {"enable-dynamic-jobs",
       {"scheduler", "scheduler-library"},
       {},
       "batfill's own scheduler registers no jobs, and the simulation would wait for its "
       "registration_finished forever"},
      {"acknowledge-dynamic-jobs",
       {"enable-dynamic-jobs"},
       {},
       "it acknowledges the dynamic jobs --enable-dynamic-jobs accepts"},
      {"enable-profile-reuse",
       {"enable-dynamic-jobs"},
       {},
       "it concerns the profiles of dynamic jobs, as Batsim requires"},
      {"resize",
       {},
       {"scheduler", "scheduler-library"},
       "resize requests are made to batfill's own scheduler only, as no Batsim protocol can say "
       "them (docs/semantics.md, resize requests)"},
  };
  // The scheduling settings choose batfill's own scheduler's behaviour; an external one takes
  // them on its own command line or init string. --queues stays: the outputs' per-queue
  // figures read it whoever schedules.
  std::vector<std::string> own_scheduler_options = {"variant_options", "verbosity"};
  for (const adapter::SettingFlag& flag : adapter::setting_flags()) {
    const std::string name =
        flag.name.substr(0, flag.name.find(','));  // "variant,v": its long name
    if (name != "queues") own_scheduler_options.push_back(name);
  }
  for (const std::string& option : own_scheduler_options) {
    rules.push_back({option,
                     {},
                     {"scheduler", "scheduler-library"},
                     "it sets batfill's own scheduler; give it to the external one instead "
                     "(batfill serve's option, or its --sched-cfg or init string key)"});
  }
  return rules;
}

void check_scheduler_protocol(const po::variables_map& values) {
  if (!given(values, "protocol")) return;
  const bool batsim5 =
      adapter::parse_protocol(values["protocol"].as<std::string>()) == adapter::Protocol::kBatsim5;
  if (batsim5 && given(values, "sched-cfg")) {
    throw std::invalid_argument(
        "--sched-cfg means nothing with --protocol batsim5: it is Batsim 4's; give a Batsim 5 "
        "EDC its settings with --scheduler-init");
  }
  if (!batsim5 && given(values, "scheduler-init")) {
    throw std::invalid_argument("--scheduler-init means nothing with --protocol " +
                                values["protocol"].as<std::string>() +
                                ": it is the init string of a Batsim 5 EDC (--protocol batsim5)");
  }
}

std::vector<OptionRule> check_option_rules() {
  return {{"nodes", {}, {"platform"}, "give the machine by --platform or --nodes, not both"}};
}

}  // namespace batfill::cli
