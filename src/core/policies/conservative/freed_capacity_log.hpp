#pragma once
// When and from what time capacity was given back in a plan. Conservative backfilling's
// compression uses it to skip the reservations that cannot move: a slot chosen as the earliest
// fit can only get an earlier fit if some capacity was freed before its end since then (adding
// rectangles only takes nodes).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "batfill/common/time.hpp"

namespace batfill {

class FreedCapacityLog {
 public:
  using Version = std::uint64_t;

  // Increases with every record; store it with whatever is planned now.
  Version version() const { return version_; }

  // Capacity was freed from `time` on.
  void record(Time time) {
    ++version_;
    // An older entry freed from no earlier is answered by this one for every later question.
    while (!entries_.empty() && entries_.back().time >= time) entries_.pop_back();
    entries_.push_back({version_, time});
  }

  // Plans never look before `now`, so capacity freed from an earlier time counts as freed from
  // `now`: the past entries become one. Without this the log would keep one entry per instant
  // of the whole run, and every question would search all of them.
  void forget_before(Time now) {
    const auto future = std::upper_bound(entries_.begin(), entries_.end(), now,
                                         [](Time t, const Entry& entry) { return t < entry.time; });
    if (future == entries_.begin()) return;
    const Version last_past = std::prev(future)->version;
    entries_.erase(entries_.begin(), std::prev(future));
    entries_.front() = {last_past, now};
  }

  // The earliest time from which capacity was freed after `version` (`now` of the last
  // forget_before for anything earlier); kNever if none was.
  Time earliest_since(Version version) const {
    // Usual after an early completion: it is the oldest entry, and newer than every slot.
    if (!entries_.empty() && version < entries_.front().version) return entries_.front().time;
    const auto first_after =
        std::upper_bound(entries_.begin(), entries_.end(), version,
                         [](Version v, const Entry& entry) { return v < entry.version; });
    return first_after == entries_.end() ? kNever : first_after->time;
  }

  // Throws std::logic_error unless the entries' versions and times strictly increase, up to the
  // current version.
  void check_invariants() const {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const bool ordered = i == 0 || (entries_[i - 1].version < entries_[i].version &&
                                      entries_[i - 1].time < entries_[i].time);
      if (!ordered || entries_[i].version > version_) {
        throw std::logic_error("freed capacity log out of order at entry " + std::to_string(i));
      }
    }
  }

 private:
  struct Entry {
    Version version;
    Time time;
  };
  std::vector<Entry> entries_;  // versions and times both strictly increasing
  Version version_ = 0;
};

}  // namespace batfill
