#include "batfill/core/policy_registry.hpp"
#include "batfill/common/text.hpp"
#include "named_registry.hpp"

#include <stdexcept>

namespace batfill {

// Factories, one per file in src/core/policies/.
std::unique_ptr<Policy> make_fcfs_policy();
std::unique_ptr<Policy> make_spec_easy_policy();
std::unique_ptr<Policy> make_spec_conservative_policy();
std::unique_ptr<Policy> make_easy_classic_policy();
std::unique_ptr<Policy> make_conservative_classic_policy();
std::unique_ptr<Policy> make_sequential_policy();
std::unique_ptr<Policy> make_easy_bf_fast_policy();
std::unique_ptr<Policy> make_filler_policy();
std::unique_ptr<Policy> make_rejecter_policy();

const std::vector<PolicyInfo>& registered_policies() {
  static const std::vector<PolicyInfo> policies = {
      {"none", "plain FCFS, no backfilling", make_fcfs_policy},
      {"easy",
       "the spec's EASY: one reservation for the queue head, backfill ends strictly before it",
       make_spec_easy_policy},
      {"conservative",
       "the spec's CONSERVATIVE: independent shadow times for all waiting jobs, backfill ends "
       "strictly before every shadow ahead of it",
       make_spec_conservative_policy},
      {"easy-classic",
       "classic EASY (Lifka): backfill ends by the head's reservation or uses only extra nodes",
       make_easy_classic_policy},
      {"conservative-classic",
       "classic conservative (Feitelson & Weil): a persistent reservation per waiting job in an "
       "availability profile, compressed after completions",
       make_conservative_classic_policy},
      {"sequential",
       "one job at a time in queue order, the head once nothing runs (batsched's sequencer, "
       "sleeper and "
       "energy_watcher)",
       make_sequential_policy},
      {"easy-bf-fast",
       "batsched's fast EASY: the head's reservation planned once when it becomes the head; "
       "waiting jobs backfill only when a job ends, new ones on arrival",
       make_easy_bf_fast_policy},
      {"filler",
       "every waiting job that fits starts, in queue order, no reservation (batsched's "
       "filler)",
       make_filler_policy},
      {"rejecter", "rejects every job (batsched's rejecter and waiting_time_estimator)",
       make_rejecter_policy},
  };
  return policies;
}

std::vector<std::string> policy_names() { return detail::names_of(registered_policies()); }

const PolicyInfo& find_policy(const std::string& name) {
  return detail::find_named(registered_policies(), name, "backfilling policy");
}

std::unique_ptr<Policy> make_policy(const std::string& name) { return find_policy(name).make(); }

}  // namespace batfill
