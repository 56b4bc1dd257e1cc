#include "batfill/core/machine_pool.hpp"

#include <algorithm>
#include <stdexcept>

namespace batfill {
namespace {

using Interval = boost::icl::discrete_interval<int>;
using Word = MachineBits::Word;
constexpr int kWordBits = MachineBits::kWordBits;

}  // namespace

AllocationRule parse_allocation_rule(const std::string& name) {
  if (name == "lowest") return AllocationRule::kLowest;
  if (name == "contiguous") return AllocationRule::kContiguous;
  if (name == "random") return AllocationRule::kRandom;
  throw std::invalid_argument("unknown allocation rule '" + name +
                              "' (valid: lowest, contiguous, random)");
}

std::string to_string(AllocationRule rule) {
  if (rule == AllocationRule::kContiguous) return "contiguous";
  return rule == AllocationRule::kRandom ? "random" : "lowest";
}

MachinePool::MachinePool(int machine_count)
    : size_(machine_count),
      free_(machine_count),
      busy_(machine_count),
      unavailable_(machine_count),
      powered_off_(machine_count) {
  free_.for_each_word(0, size_ - 1, [&](std::size_t w, Word mask) { free_.word(w) |= mask; });
  free_count_ = std::max(size_, 0);
}

template <typename Change>
void MachinePool::for_each_word(const MachineSet& machines, Change change) const {
  for (const Interval& interval : machines) {
    free_.for_each_word(boost::icl::first(interval), boost::icl::last(interval), change);
  }
}

// The first id >= from whose free bit equals `free`, or size_. Bits past size_ are never free,
// so a search for a busy id stops there at the latest.
int MachinePool::next_with_state(int from, bool free) const {
  std::size_t word = static_cast<std::size_t>(from / kWordBits);
  if (from >= size_) return size_;
  const auto bits_of = [&](std::size_t w) { return free ? free_.word(w) : ~free_.word(w); };
  Word bits = bits_of(word) & (~Word{0} << (from % kWordBits));
  while (bits == 0) {
    if (++word == free_.word_count()) return size_;
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
  if (rule == AllocationRule::kRandom) chosen = draw_free(count);
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
  // The chosen machines were all free.
  for_each_word(chosen, [&](std::size_t w, Word mask) {
    busy_.word(w) |= mask;
    free_.word(w) &= ~mask;
  });
  free_count_ -= count;
  return chosen;
}

// `count` distinct free ids, each draw uniform among the free ids not drawn yet (a partial
// Fisher-Yates shuffle). splitmix64 rather than a standard distribution, whose results differ
// between standard libraries: a run gives the same machines everywhere.
MachineSet MachinePool::draw_free(int count) {
  std::vector<int> free_ids;
  free_ids.reserve(static_cast<std::size_t>(free_count_));
  for_each_free_run([&](int first, int end) {
    for (int id = first; id < end; ++id) free_ids.push_back(id);
    return true;
  });
  MachineSet chosen;
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
    const std::size_t left = free_ids.size() - i;
    std::swap(free_ids[i], free_ids[i + static_cast<std::size_t>(next_draw() % left)]);
    chosen.insert(free_ids[i]);
  }
  return chosen;
}

std::uint64_t MachinePool::next_draw() {
  std::uint64_t z = (draws_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void MachinePool::release(const MachineSet& machines) {
  for_each_word(machines, [&](std::size_t w, Word mask) {
    busy_.word(w) &= ~mask;
    const Word back = mask & ~unavailable_.word(w) & ~free_.word(w);
    free_.word(w) |= back;
    free_count_ += MachineBits::count(back);
  });
}

void MachinePool::mark_unavailable(const MachineSet& machines) { take_out(unavailable_, machines); }
void MachinePool::mark_available(const MachineSet& machines) { put_back(unavailable_, machines); }
void MachinePool::power_down(const MachineSet& machines) { take_out(powered_off_, machines); }
void MachinePool::power_up(const MachineSet& machines) { put_back(powered_off_, machines); }

// A machine is out of use while any reason holds (unavailable, powered off); a busy one keeps
// its job.
void MachinePool::take_out(MachineBits& reason, const MachineSet& machines) {
  for_each_word(machines, [&](std::size_t w, Word mask) {
    reason.word(w) |= mask;
    free_count_ -= MachineBits::count(free_.word(w) & mask);
    free_.word(w) &= ~mask;
  });
}

void MachinePool::put_back(MachineBits& reason, const MachineSet& machines) {
  for_each_word(machines, [&](std::size_t w, Word mask) {
    reason.word(w) &= ~mask;
    const Word back = mask & ~busy_.word(w) & ~unavailable_.word(w) & ~powered_off_.word(w) &
                      ~free_.word(w);
    free_.word(w) |= back;
    free_count_ += MachineBits::count(back);
  });
}

}  // namespace batfill
