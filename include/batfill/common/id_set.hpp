#pragma once
// An exact set of job ids that costs about one bit per id for the common ones.
//
// Replays of millions of jobs must remember which ids they have seen (duplicate ids in a trace,
// a job submitted or completed twice) without keeping every id as a string. Ids written as a
// prefix and a plain number ("17", "w0!17") are bits in a table by number, one table per
// prefix; any other id ("017", "a.b", numbers past the table's reach) is kept as text.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace batfill {

class IdSet {
 public:
  // Adds `id`; false when it was already in the set.
  bool insert(std::string_view id);
  bool contains(std::string_view id) const;

 private:
  struct Numbered {
    std::string prefix;
    std::vector<std::uint64_t> bits;  // bit n: the id prefix + n is in the set
  };
  // Ids up to here are bits: the table grows with the largest number seen, not the id count,
  // so it is capped at 2^28 bits (32 MB); larger numbers are kept as text.
  static constexpr std::uint64_t kLargestNumber = (std::uint64_t{1} << 28) - 1;

  Numbered* table_of(std::string_view prefix, bool create);
  const Numbered* table_of(std::string_view prefix) const;

  std::vector<Numbered> tables_;  // a workload or two: a short list beats a map
  std::unordered_set<std::string> others_;
};

}  // namespace batfill
