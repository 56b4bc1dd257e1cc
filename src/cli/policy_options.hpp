#pragma once
// The scheduler settings on the command line of `batfill simulate` and `batfill serve`: each
// setting's flag and batsched's spelling of it (the table of adapter/settings.hpp), so that
// `batsched -v easy_bf` becomes `batfill serve -v easy_bf` and nothing else changes; batsched's
// --variant_options; and --verbosity.

#include <boost/program_options.hpp>

#include "batfill/adapter/log.hpp"
#include "batfill/adapter/settings.hpp"

namespace batfill::cli {

boost::program_options::options_description policy_options_description();

// The settings the flags (aliases included) and --variant_options give over the defaults,
// checked now, before any simulation starts or any Batsim connects. Throws
// std::invalid_argument with a message listing the valid values when a name is unknown, when
// two spellings disagree, and "--variant_options: <what>" for a bad JSON object, as every JSON
// source of settings (adapter::apply_settings_json).
adapter::Settings command_line_settings(const boost::program_options::variables_map& values);

// --verbosity's level, `fallback` when not given.
adapter::Verbosity verbosity_option(const boost::program_options::variables_map& values,
                                    adapter::Verbosity fallback);

}  // namespace batfill::cli
