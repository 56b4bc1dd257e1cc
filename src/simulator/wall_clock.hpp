#pragma once
// Wall-clock time of the run itself (not simulated time): reported in the outputs and paces the
// progress bar.

#include <chrono>

namespace batfill::simulator {

using WallClock = std::chrono::steady_clock;

inline double seconds_since(WallClock::time_point start) {
  return std::chrono::duration<double>(WallClock::now() - start).count();
}

}  // namespace batfill::simulator
