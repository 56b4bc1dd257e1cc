#include "batfill/common/id_set.hpp"

#include <algorithm>
#include <optional>

namespace batfill {
namespace {

struct SplitId {
  std::string_view prefix;
  std::uint64_t number;
};

// "w0!17" -> {"w0!", 17}: the id's trailing digits as a plain number (no leading zero, so that
// "017" and "17" stay different ids), and what precedes them.
std::optional<SplitId> split_number(std::string_view id, std::uint64_t largest) {
  std::size_t start = id.size();
  while (start > 0 && id[start - 1] >= '0' && id[start - 1] <= '9') --start;
  const std::size_t digits = id.size() - start;
  if (digits == 0 || digits > 10 || (digits > 1 && id[start] == '0')) return std::nullopt;
  std::uint64_t number = 0;
  for (std::size_t i = start; i < id.size(); ++i) {
    number = number * 10 + static_cast<std::uint64_t>(id[i] - '0');
  }
  if (number > largest) return std::nullopt;
  return SplitId{id.substr(0, start), number};
}

}  // namespace

IdSet::Numbered* IdSet::table_of(std::string_view prefix, bool create) {
  for (Numbered& table : tables_) {
    if (table.prefix == prefix) return &table;
  }
  if (!create) return nullptr;
  tables_.push_back({std::string(prefix), {}});
  return &tables_.back();
}

const IdSet::Numbered* IdSet::table_of(std::string_view prefix) const {
  for (const Numbered& table : tables_) {
    if (table.prefix == prefix) return &table;
  }
  return nullptr;
}

bool IdSet::insert(std::string_view id) {
  const std::optional<SplitId> split = split_number(id, kLargestNumber);
  if (!split) return others_.emplace(id).second;
  std::vector<std::uint64_t>& bits = table_of(split->prefix, true)->bits;
  const std::size_t word = split->number / 64;
  // Doubling keeps growth amortised as ids climb through a trace.
  if (word >= bits.size()) {
    const std::size_t words = kLargestNumber / 64 + 1;
    bits.resize(std::min(std::max(word + 1, 2 * bits.size()), words), 0);
  }
  const std::uint64_t mask = std::uint64_t{1} << (split->number % 64);
  const bool added = (bits[word] & mask) == 0;
  bits[word] |= mask;
  return added;
}

bool IdSet::contains(std::string_view id) const {
  const std::optional<SplitId> split = split_number(id, kLargestNumber);
  if (!split) return others_.count(std::string(id)) != 0;
  const Numbered* table = table_of(split->prefix);
  if (table == nullptr) return false;
  const std::size_t word = split->number / 64;
  return word < table->bits.size() && (table->bits[word] >> (split->number % 64) & 1) != 0;
}

}  // namespace batfill
