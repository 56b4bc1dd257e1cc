#pragma once
// A progress bar on stderr for long runs: jobs ended out of all jobs, and the simulated time.

#include <cstddef>

#include "batfill/common/time.hpp"
#include "wall_clock.hpp"

namespace batfill::simulator {

class ProgressBar {
 public:
  ProgressBar(bool enabled, std::size_t total_jobs);

  // Redraws the bar at most four times a second, and only once the run has lasted a second.
  void update(std::size_t ended_jobs, Time now);
  // Draws the final bar and ends its line, if a bar was drawn at all.
  void finish(std::size_t ended_jobs, Time now);

 private:
  void draw(std::size_t ended_jobs, Time now, bool done);

  bool enabled_;
  std::size_t total_jobs_;
  WallClock::time_point start_ = WallClock::now();
  double last_drawn_ = 0;
  unsigned tick_ = 0;
};

}  // namespace batfill::simulator
