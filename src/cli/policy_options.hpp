#pragma once
// The scheduler settings on the command line of `batfill simulate` and `batfill serve`: each
// setting's flag and batsched's spelling of it (the table of adapter/settings.hpp), so that
// `batsched -v easy_bf` becomes `batfill serve -v easy_bf` and nothing else changes; batsched's
// --variant_options; and --verbosity.

#include <boost/program_options.hpp>

#include "batfill/adapter/log.hpp"
#include "batfill/adapter/settings.hpp"

namespace batfill::cli {

struct PolicyChoice {
  adapter::Settings settings;
  adapter::Verbosity verbosity = adapter::Verbosity::kInfo;
};

boost::program_options::options_description policy_options_description();

// Resolves the options (aliases included) into one choice; throws std::invalid_argument with a
// message listing the valid values when a name is unknown or two spellings disagree.
PolicyChoice resolve_policy_choice(const boost::program_options::variables_map& values,
                                   adapter::Verbosity default_verbosity);

}  // namespace batfill::cli
