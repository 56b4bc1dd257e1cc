#pragma once
// Options that only mean something beside another (docs/usage.md, "Options that need another"):
// given without it, or with one that makes it meaningless, they are refused rather than ignored.

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace batfill::cli {

struct OptionRule {
  std::string option;
  std::vector<std::string> needs_one_of;  // empty: needs nothing
  std::vector<std::string> not_with;
  std::string why;  // what the option is for, said when it is refused
};

// Throws std::invalid_argument naming the first option given against its rule. An option left
// at its default counts as not given.
void check_option_rules(const boost::program_options::variables_map& values,
                        const std::vector<OptionRule>& rules);

// The rules of `batfill simulate`.
std::vector<OptionRule> simulate_option_rules();
// What `batfill simulate --protocol` allows beside it: a Batsim 5 process EDC takes
// --scheduler-init and no --sched-cfg, as an EDC library does; a Batsim 4 scheduler the reverse.
void check_scheduler_protocol(const boost::program_options::variables_map& values);
// The rules of `batfill check`.
std::vector<OptionRule> check_option_rules();

}  // namespace batfill::cli
