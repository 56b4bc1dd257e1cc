#pragma once
// The nesting limit of every JSON document batfill reads (workloads, Batsim messages, options):
// RapidJSON's DOM copies and writes values recursively, so a document nested tens of thousands
// of levels deep would overflow the stack. No real workload or message nests beyond about ten
// levels (docs/semantics.md#input-limits, docs/protocol.md#what-a-request-must-satisfy).

#include <cstddef>
#include <optional>
#include <string_view>

namespace batfill {

constexpr int kMaxJsonDepth = 256;

// The offset of the first '[' or '{' (outside strings) that opens level kMaxJsonDepth + 1, if
// any. A linear scan without recursion, run before parsing.
std::optional<std::size_t> find_excess_json_nesting(std::string_view text);

}  // namespace batfill
