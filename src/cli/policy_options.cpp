#include "policy_options.hpp"

#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "batfill/adapter/options_json.hpp"
#include "batfill/common/text.hpp"
#include "batfill/core/policy_registry.hpp"
#include "batfill/core/prediction.hpp"

namespace batfill::cli {
namespace po = boost::program_options;
namespace {

// batsched's variant names for the algorithms batfill implements (batsched's `-v`).
const std::vector<std::pair<std::string, std::string>> kBatschedVariants = {
    {"easy_bf", "easy-classic"},
    {"conservative_bf", "conservative-classic"},
    {"fcfs", "none"},
    {"fcfs_fast", "none"},
};

// Two spellings of one option must agree (e.g. --backfill easy with -v conservative_bf).
void set_once(std::string& slot, const std::string& value, const std::string& what) {
  if (!slot.empty() && slot != value) {
    throw std::invalid_argument("conflicting " + what + ": '" + slot + "' and '" + value + "'");
  }
  slot = value;
}

// The prediction settings as given, checked when resolved.
struct PredictionNames {
  std::string predictor, corrector, backfill_order;
  std::optional<PredictorOptions> predictor_options;
  std::shared_ptr<const QueueConfig> queues;  // --queues or the key `queues`
  std::string batching;
};

// batsched's --variant_options is the same JSON object as Batsim's sched-config.
void apply_variant_options(const std::string& json, std::string& policy, std::string& order,
                           std::string& alloc, PredictionNames& prediction) {
  adapter::SchedulingOverrides overrides;
  try {
    overrides = adapter::parse_options_json(json);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--variant_options: ") + e.what());
  }
  if (overrides.backfill) set_once(policy, *overrides.backfill, "policies");
  if (overrides.order) set_once(order, *overrides.order, "queue orders");
  if (overrides.alloc) set_once(alloc, *overrides.alloc, "allocation rules");
  if (overrides.predictor) set_once(prediction.predictor, *overrides.predictor, "predictors");
  if (overrides.corrector) set_once(prediction.corrector, *overrides.corrector, "correctors");
  if (overrides.backfill_order) {
    set_once(prediction.backfill_order, *overrides.backfill_order, "backfill orders");
  }
  if (overrides.predictor_options) prediction.predictor_options = overrides.predictor_options;
  if (overrides.queues) prediction.queues = overrides.queues;
  if (overrides.batching) set_once(prediction.batching, *overrides.batching, "event batchings");
}

PredictionNames prediction_names(const po::variables_map& values) {
  PredictionNames names;
  if (values.count("predictor")) names.predictor = values["predictor"].as<std::string>();
  if (values.count("corrector")) names.corrector = values["corrector"].as<std::string>();
  if (values.count("backfill-order")) {
    names.backfill_order = values["backfill-order"].as<std::string>();
  }
  if (values.count("batching")) names.batching = values["batching"].as<std::string>();
  if (values.count("queues")) {
    names.queues = std::make_shared<const QueueConfig>(
        adapter::read_queue_config(values["queues"].as<std::string>()));
  }
  if (values.count("predictor-options")) {
    try {
      names.predictor_options =
          adapter::parse_predictor_options(values["predictor-options"].as<std::string>());
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--predictor-options: ") + e.what());
    }
  }
  return names;
}

void apply_prediction(const PredictionNames& names, SchedulerOptions& options) {
  if (!names.predictor.empty()) options.predictor = find_predictor(names.predictor).name;
  if (names.predictor_options) options.predictor_options = *names.predictor_options;
  if (names.queues) options.queues = names.queues;
  if (!names.corrector.empty()) options.corrector = adapter::corrector_setting(names.corrector);
  if (!names.backfill_order.empty()) {
    options.backfill_order = parse_backfill_order(names.backfill_order);
  }
}

}  // namespace

std::string policy_for_variant(const std::string& variant) {
  for (const auto& [batsched_name, policy] : kBatschedVariants) {
    if (variant == batsched_name) return policy;
  }
  for (const PolicyInfo& policy : registered_policies()) {
    if (policy.name == variant) return variant;
  }
  std::vector<std::string> batsched_names;
  for (const auto& entry : kBatschedVariants) {
    batsched_names.push_back(entry.first);
  }
  throw std::invalid_argument("unknown variant '" + variant +
                              "' (batsched names: " + join(batsched_names) +
                              "; batfill policies: " + join(policy_names()) + ")");
}

po::options_description policy_options_description() {
  po::options_description options("Scheduling");
  options.add_options()("backfill", po::value<std::string>(),
                        ("policy: " + join(policy_names()) + " (default: easy)").c_str())(
      "order", po::value<std::string>(), "queue order (default: fcfs)")(
      "alloc", po::value<std::string>(), "machine choice: lowest (default) or contiguous")(
      "variant,v", po::value<std::string>(),
      "batsched spelling of --backfill: easy_bf, conservative_bf, fcfs, fcfs_fast, or a batfill "
      "policy name")("queue_order,o", po::value<std::string>(), "batsched spelling of --order")(
      "policy,p", po::value<std::string>(),
      "batsched's machine choice: basic (= --alloc lowest) or contiguous")(
      "predictor", po::value<std::string>(),
      ("runtime prediction used for planning: " + join(predictor_names()) +
       " (default: requested, the walltime)")
          .c_str())("predictor-options", po::value<std::string>(),
                    "JSON object of the predictor's options")(
      "corrector", po::value<std::string>(),
      ("new prediction for a job that outlives its own: none (default), " + join(corrector_names()))
          .c_str())(
      "backfill-order", po::value<std::string>(),
      "order of the backfill candidates: queue (default) or sjbf (shortest predicted first)")(
      "queues", po::value<std::string>(),
      "JSON file of LSF-style queues: priorities, reservations, backfill, slot limits "
      "(docs/semantics.md §2.10)")(
      "batching", po::value<std::string>(),
      "how the events of one Batsim request are handled: instant (default: completions, then "
      "submissions, one pass) or per-event (one pass per event, submissions first, completions "
      "in start order, jobs at their planned end freed first, as pyss)")(
      "variant_options", po::value<std::string>(),
      "JSON object with keys backfill, order, alloc, predictor, predictor_options, corrector, "
      "backfill_order, queues, batching (batsched's option)")(
      "verbosity", po::value<std::string>(), "quiet, info or debug (batsched also has silent)");
  return options;
}

PolicyChoice resolve_policy_choice(const po::variables_map& values,
                                   adapter::Verbosity default_verbosity) {
  std::string policy, order, alloc;
  if (values.count("backfill")) set_once(policy, values["backfill"].as<std::string>(), "policies");
  if (values.count("variant")) {
    set_once(policy, policy_for_variant(values["variant"].as<std::string>()), "policies");
  }
  if (values.count("order")) set_once(order, values["order"].as<std::string>(), "queue orders");
  if (values.count("queue_order")) {
    set_once(order, values["queue_order"].as<std::string>(), "queue orders");
  }
  if (values.count("alloc")) set_once(alloc, values["alloc"].as<std::string>(), "allocation rules");
  if (values.count("policy")) {
    // batsched's --policy is the machine choice, never the algorithm.
    const std::string rule = values["policy"].as<std::string>();
    if (rule != "basic" && rule != "contiguous") {
      throw std::invalid_argument("unknown --policy '" + rule +
                                  "' (batsched's machine choice: basic, contiguous; the "
                                  "algorithm is chosen with --backfill or -v)");
    }
    set_once(alloc, rule == "basic" ? "lowest" : "contiguous", "allocation rules");
  }
  PredictionNames prediction = prediction_names(values);
  if (values.count("variant_options")) {
    apply_variant_options(values["variant_options"].as<std::string>(), policy, order, alloc,
                          prediction);
  }

  PolicyChoice choice;
  if (!policy.empty()) choice.policy = policy;
  find_policy(choice.policy);  // validates the name with the registry's own error message
  if (!order.empty()) choice.scheduler.order = parse_queue_order(order);
  if (!alloc.empty()) choice.scheduler.allocation = parse_allocation_rule(alloc);
  apply_prediction(prediction, choice.scheduler);
  if (!prediction.batching.empty())
    choice.batching = adapter::parse_event_batching(prediction.batching);
  // A scheduler built now checks the combination (predictor options, sjbf with the policy)
  // before any simulation starts or any Batsim connects.
  Scheduler(1, make_policy(choice.policy), choice.scheduler);
  choice.verbosity = default_verbosity;
  if (values.count("verbosity")) {
    const std::string level = values["verbosity"].as<std::string>();
    choice.verbosity = adapter::parse_verbosity(level == "silent" ? "quiet" : level);
  }
  return choice;
}

}  // namespace batfill::cli
