#pragma once
// The scheduling options shared by `batfill simulate` and `batfill serve`: batfill's own
// --backfill/--order/--alloc, and batsched's -v/-o/-p spellings so that `batsched -v easy_bf`
// becomes `batfill serve -v easy_bf` and nothing else changes.

#include <boost/program_options.hpp>
#include <string>

#include "batfill/adapter/event_batching.hpp"
#include "batfill/adapter/log.hpp"
#include "batfill/core/scheduler.hpp"

namespace batfill::cli {

struct PolicyChoice {
  std::string policy = "easy";
  SchedulerOptions scheduler;
  adapter::EventBatching batching = adapter::EventBatching::kInstant;
  adapter::Verbosity verbosity = adapter::Verbosity::kInfo;
};

boost::program_options::options_description policy_options_description();

// Resolves the options (aliases included) into one choice; throws std::invalid_argument with a
// message listing the valid values when a name is unknown or two spellings disagree.
PolicyChoice resolve_policy_choice(const boost::program_options::variables_map& values,
                                   adapter::Verbosity default_verbosity);

// batsched variant name -> batfill policy name ("easy_bf" -> "easy-classic"); batfill's own
// names map to themselves. Throws std::invalid_argument listing both sets of names.
std::string policy_for_variant(const std::string& variant);

}  // namespace batfill::cli
