#pragma once
// The runs of a plan where at least some number of nodes stay free, as one compression of
// classic conservative backfilling reads them
// (docs/semantics.md#conservative-classic--feitelson--weil-1998). Under overload most
// reservations cannot move, and a search that proves it walks the plan from now to the
// reservation's start; one that moves walks it up to the new slot. Within one compression the
// plan changes only where reservations move: the runs read for one search answer the next ones
// for the same number of nodes, or more (runs with `nodes` free hold those with more free), and
// capacity given back is read again where it came back.
//
// A slot earlier than a reservation's own lies, up to that start, inside one run: one as long as
// the job, or the run that reaches the reservation's start. So no slot begins before the first
// such run, and where there is none the reservation cannot move.
//
// Invariant: every instant from the plan's origin up to `scanned_` that has `nodes` free lies in
// a recorded run (the closed ones, then the open one), and the instant just after a closed run
// has not. Recorded runs may be longer than the plan's: a reservation moved into one since it
// was read (taking capacity only shortens runs). So they bound the earliest slot from below, never
// from above; the search itself stays the profile's.

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "batfill/common/time.hpp"
#include "batfill/core/availability_profile.hpp"

namespace batfill {

class FreeRuns {
 public:
  // The runs with at least `nodes` free in a plan whose origin is `origin`.
  FreeRuns(int nodes, Time origin) { reset(nodes, origin); }
  FreeRuns() = default;

  // As if made again for `nodes` and `origin`, its memory kept.
  void reset(int nodes, Time origin) {
    nodes_ = nodes;
    runs_.clear();
    given_back_.clear();
    longest_.clear();
    longest_known_ = 0;
    open_start_ = kNever;
    scanned_ = origin;
    origin_ = origin;
  }

  int nodes() const { return nodes_; }

  // The earliest time at which a job with these nodes for `duration` may start before `start`,
  // its reservation's start: the beginning of the first run before `start` that lasts
  // `duration` or reaches `start`. kNever if there is none.
  Time earliest_start(Time duration, Time start, const AvailabilityProfile& profile) {
    read_given_back(profile);
    scan_to(start, profile);
    // The first run as long as the job, through the longest run so far at each.
    std::size_t run = 0;
    if (longest_known_ > 0 && longest_[longest_known_ - 1] >= duration) {
      run = static_cast<std::size_t>(
          std::lower_bound(longest_.begin(), longest_.begin() + longest_known_, duration) -
          longest_.begin());
    } else {
      for (run = longest_known_; run < runs_.size(); ++run) {
        const Time length = runs_[run].end - runs_[run].start;
        longest_[run] = std::max(run == 0 ? 0 : longest_[run - 1], length);
        longest_known_ = run + 1;
        if (length >= duration || runs_[run].start >= start) break;
      }
    }
    // Before it, only the run reaching `start` may do: the last one beginning before it.
    const auto after = std::lower_bound(runs_.begin(), runs_.begin() + run, start,
                                        [](const Run& r, Time t) { return r.end < t; });
    if (after != runs_.begin() + run) run = static_cast<std::size_t>(after - runs_.begin());
    if (run < runs_.size()) return runs_[run].start < start ? runs_[run].start : kNever;
    return open_start_ < start ? open_start_ : kNever;  // the open one reaches `start`
  }

  // Capacity was given back over [from, until): the runs touching it may grow or join, and new
  // ones may appear in it. Those instants are read again at the next question.
  void give_back(Time from, Time until) {
    if (from < scanned_) given_back_.push_back({from, until});  // else the scan reads it
  }

  // Throws std::logic_error unless the runs are ordered, apart and within what was scanned.
  void check_invariants() const {
    Time previous_end = origin_ - 1;  // a run may begin at the origin
    for (std::size_t run = 0; run < runs_.size(); ++run) {
      if (runs_[run].start < origin_ || runs_[run].start >= runs_[run].end ||
          runs_[run].start <= previous_end || runs_[run].end >= scanned_) {
        throw std::logic_error("free runs out of order at run " + std::to_string(run));
      }
      previous_end = runs_[run].end;
    }
    for (std::size_t run = 0; run < longest_known_; ++run) {
      const Time length = runs_[run].end - runs_[run].start;
      if (longest_[run] != std::max(run == 0 ? 0 : longest_[run - 1], length)) {
        throw std::logic_error("free runs: a wrong longest run at run " + std::to_string(run));
      }
    }
    if (open_start_ != kNever && (open_start_ <= previous_end || open_start_ >= scanned_)) {
      throw std::logic_error("free runs: the open run is not after the closed ones");
    }
  }

 private:
  struct Run {
    Time start;
    Time end;
  };

  // Reads again where capacity was given back since the last question, each stretch once.
  void read_given_back(const AvailabilityProfile& profile) {
    if (given_back_.empty()) return;
    std::sort(given_back_.begin(), given_back_.end(),
              [](const Run& a, const Run& b) { return a.start < b.start; });
    Run stretch = given_back_.front();
    for (const Run& given : given_back_) {
      if (given.start > stretch.end) {
        read_again(stretch.start, stretch.end, profile);
        stretch = given;
      }
      stretch.end = std::max(stretch.end, given.end);
    }
    read_again(stretch.start, stretch.end, profile);
    given_back_.clear();
  }

  // Reads again the instants of [from, until) that no run holds, and joins what it finds with
  // the runs around. Capacity came back only there, so the rest stands.
  void read_again(Time from, Time until, const AvailabilityProfile& profile) {
    if (from >= scanned_) return;
    const Time last = std::min(until, scanned_);
    const auto first_touched = std::lower_bound(runs_.begin(), runs_.end(), from,
                                                [](const Run& run, Time t) { return run.end < t; });
    const auto after_touched = std::upper_bound(
        first_touched, runs_.end(), last, [](Time t, const Run& run) { return t < run.start; });
    // The runs touching the stretch, with the runs read in its gaps, in time order.
    read_.clear();
    Time cursor = from;
    const auto read_gap = [&](Time to) {
      if (cursor >= to) return;
      Time open = kNever;
      read(cursor, to, profile, read_, open);
      if (open != kNever) read_.push_back({open, to});
    };
    for (auto run = first_touched; run != after_touched; ++run) {
      read_gap(run->start);
      read_.push_back(*run);
      cursor = std::max(cursor, run->end);
    }
    if (open_start_ != kNever && open_start_ <= last) {
      read_gap(open_start_);
      read_.push_back({open_start_, scanned_});
      cursor = scanned_;
    }
    read_gap(last);
    join_read(static_cast<std::size_t>(first_touched - runs_.begin()),
              static_cast<std::size_t>(after_touched - runs_.begin()));
  }

  // Puts the runs read in place of the closed runs [first, after), joining those that meet; one
  // that reaches what was scanned is the open run.
  void join_read(std::size_t first, std::size_t after) {
    std::size_t joined = 0;
    for (const Run& run : read_) {
      if (joined > 0 && run.start <= read_[joined - 1].end) {
        read_[joined - 1].end = std::max(read_[joined - 1].end, run.end);
      } else {
        read_[joined++] = run;
      }
    }
    read_.resize(joined);
    if (!read_.empty() && read_.back().end >= scanned_) {
      open_start_ = read_.back().start;
      read_.pop_back();
    }
    longest_known_ = std::min(longest_known_, first);
    const auto erased = runs_.erase(runs_.begin() + static_cast<std::ptrdiff_t>(first),
                                    runs_.begin() + static_cast<std::ptrdiff_t>(after));
    runs_.insert(erased, read_.begin(), read_.end());
    longest_.resize(runs_.size());
  }

  void scan_to(Time until, const AvailabilityProfile& profile) {
    if (until <= scanned_) return;
    read(scanned_, until, profile, runs_, open_start_);
    longest_.resize(runs_.size());
    scanned_ = until;
  }

  // Reads the instants of [begin, end) into `runs`, the last one left `open` (its start) if it
  // reaches `end`; `open` is the start of a run reaching `begin`, kNever if none does.
  void read(Time begin, Time end, const AvailabilityProfile& profile, std::vector<Run>& runs,
            Time& open) const {
    const auto& steps = profile.steps();
    for (std::size_t step = profile.step_holding(begin);
         step < steps.size() && steps[step].first < end; ++step) {
      const Time from = std::max(steps[step].first, begin);
      if (steps[step].second >= nodes_) {
        if (open == kNever) open = from;
      } else if (open != kNever) {
        runs.push_back({open, from});
        open = kNever;
      }
    }
  }

  int nodes_ = 0;
  std::vector<Run> runs_;        // closed runs, in time order
  std::vector<Run> given_back_;  // capacity given back since the last question
  std::vector<Run> read_;        // the runs read again
  // For the first `longest_known_` runs, the longest up to each (not decreasing).
  std::vector<Time> longest_;
  std::size_t longest_known_ = 0;
  Time open_start_ = kNever;  // the start of the run still open at `scanned_`, if any
  Time scanned_ = 0;          // instants before it are read
  Time origin_ = 0;
};

}  // namespace batfill
