#include "batfill/core/machine_pool.hpp"

#include <algorithm>
#include <stdexcept>

namespace batfill {
namespace {

using Interval = boost::icl::discrete_interval<int>;
constexpr int kWordBits = 64;

}  // namespace

AllocationRule parse_allocation_rule(const std::string& name) {
  if (name == "lowest") return AllocationRule::kLowest;
  if (name == "contiguous") return AllocationRule::kContiguous;
  throw std::invalid_argument("unknown allocation rule '" + name + "' (valid: lowest, contiguous)");
}

std::string to_string(AllocationRule rule) {
  return rule == AllocationRule::kLowest ? "lowest" : "contiguous";
}

MachinePool::MachinePool(int machine_count)
    : size_(machine_count),
      free_words_(
          (static_cast<std::size_t>(std::max(machine_count, 0)) + kWordBits - 1) / kWordBits, 0),
      busy_(static_cast<std::size_t>(std::max(machine_count, 0)), false),
      unavailable_(static_cast<std::size_t>(std::max(machine_count, 0)), false) {
  for (int id = 0; id < size_; ++id) set_free(id, true);
}

bool MachinePool::is_free(int id) const {
  return (free_words_[static_cast<std::size_t>(id / kWordBits)] >> (id % kWordBits)) & 1U;
}

void MachinePool::set_free(int id, bool free) {
  std::uint64_t& word = free_words_[static_cast<std::size_t>(id / kWordBits)];
  const std::uint64_t bit = std::uint64_t{1} << (id % kWordBits);
  if (free == ((word & bit) != 0)) return;
  word ^= bit;
  free_count_ += free ? 1 : -1;
}

// The first id >= from whose free bit equals `free`, or size_. Bits past size_ are never free,
// so a search for a busy id stops there at the latest.
int MachinePool::next_with_state(int from, bool free) const {
  std::size_t word = static_cast<std::size_t>(from / kWordBits);
  if (from >= size_) return size_;
  const auto bits_of = [&](std::size_t w) { return free ? free_words_[w] : ~free_words_[w]; };
  std::uint64_t bits = bits_of(word) & (~std::uint64_t{0} << (from % kWordBits));
  while (bits == 0) {
    if (++word == free_words_.size()) return size_;
    bits = bits_of(word);
  }
  const int id = static_cast<int>(word) * kWordBits + __builtin_ctzll(bits);
  return std::min(id, size_);
}

// Free machines come in maximal runs [first, end); `visit(first, end)` returns false to stop.
template <typename Visit>
void MachinePool::for_each_free_run(Visit visit) const {
  for (int first = next_with_state(0, true); first < size_;) {
    const int end = next_with_state(first, false);
    if (!visit(first, end)) return;
    first = next_with_state(end, true);
  }
}

MachineSet MachinePool::allocate(int count, AllocationRule rule) {
  if (count > free_count()) {
    throw std::logic_error("allocation of " + std::to_string(count) + " machines with only " +
                           std::to_string(free_count()) + " free");
  }
  MachineSet chosen;
  if (rule == AllocationRule::kContiguous) {
    // The lowest free block long enough.
    for_each_free_run([&](int first, int end) {
      if (end - first < count) return true;
      chosen = machine_range(first, first + count - 1);
      return false;
    });
  }
  if (chosen.empty()) {
    // The lowest free ids.
    int needed = count;
    for_each_free_run([&](int first, int end) {
      if (needed == 0) return false;
      const int take = std::min(needed, end - first);
      chosen.insert(Interval::closed(first, first + take - 1));
      needed -= take;
      return true;
    });
  }
  for_each_id(chosen, [this](int id) {
    busy_[static_cast<std::size_t>(id)] = true;
    set_free(id, false);
  });
  return chosen;
}

void MachinePool::release(const MachineSet& machines) {
  for_each_id_in_range(machines, [&](int id) {
    busy_[static_cast<std::size_t>(id)] = false;
    if (!unavailable_[static_cast<std::size_t>(id)]) set_free(id, true);
  });
}

void MachinePool::mark_unavailable(const MachineSet& machines) {
  for_each_id_in_range(machines, [&](int id) {
    unavailable_[static_cast<std::size_t>(id)] = true;
    set_free(id, false);
  });
}

void MachinePool::mark_available(const MachineSet& machines) {
  for_each_id_in_range(machines, [&](int id) {
    unavailable_[static_cast<std::size_t>(id)] = false;
    if (!busy_[static_cast<std::size_t>(id)]) set_free(id, true);
  });
}

template <typename Visit>
void MachinePool::for_each_id_in_range(const MachineSet& machines, Visit visit) {
  for (const Interval& interval : machines) {
    const int first = std::max(boost::icl::first(interval), 0);
    const int last = std::min(boost::icl::last(interval), size_ - 1);
    for (int id = first; id <= last; ++id) visit(id);
  }
}

}  // namespace batfill
