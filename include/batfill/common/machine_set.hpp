#pragma once
// Sets of machine ids, written as Batsim interval sets ("0-3 7 9-10").

#include <boost/icl/interval_set.hpp>
#include <string>
#include <string_view>

namespace batfill {

using MachineSet = boost::icl::interval_set<int>;

// The largest machine batfill accepts, from any source (SWF header, JSON nb_res, --nodes,
// SIMULATION_BEGINS): ten times today's largest systems, far below where per-machine tables
// exhaust memory (docs/semantics.md#machine-size).
constexpr int kMaxMachines = 1'000'000;

// Every id in [first, last].
MachineSet machine_range(int first, int last);

// Number of machines in the set.
int machine_count(const MachineSet& machines);

// Calls visit(id) for every id of the set, in ascending order.
template <class Visit>
void for_each_id(const MachineSet& machines, Visit visit) {
  for (const auto& interval : machines) {
    for (int id = boost::icl::first(interval); id <= boost::icl::last(interval); ++id) visit(id);
  }
}

// Canonical Batsim form: disjoint maximal intervals in ascending order, single ids as "a",
// ranges as "a-b", separated by one space. The empty set is "".
std::string to_string(const MachineSet& machines);
// The same text appended to `out` (CSV rows).
void append_machine_set(std::string& out, const MachineSet& machines);

// Accepts any valid Batsim interval set (unsorted or overlapping parts, several spaces).
// Throws std::invalid_argument naming the offending part.
MachineSet parse_machine_set(std::string_view text);

}  // namespace batfill
