#include "progress_bar.hpp"

#include <cstdio>
#include <string>

namespace batfill::simulator {

ProgressBar::ProgressBar(bool enabled, std::size_t total_jobs)
    : enabled_(enabled), total_jobs_(total_jobs) {}

void ProgressBar::update(std::size_t ended_jobs, Time now) {
  // Reading the wall clock at every instant costs more than the instant itself on delay traces.
  if (!enabled_ || (++tick_ & 1023) != 0) return;
  const double elapsed = seconds_since(start_);
  if (elapsed < 1.0 || elapsed - last_drawn_ < 0.25) return;
  last_drawn_ = elapsed;
  draw(ended_jobs, now, false);
}

void ProgressBar::finish(std::size_t ended_jobs, Time now) {
  if (!enabled_ || last_drawn_ == 0) return;  // short runs print no bar at all
  last_drawn_ = seconds_since(start_);
  draw(ended_jobs, now, true);
}

void ProgressBar::draw(std::size_t ended_jobs, Time now, bool done) {
  const double fraction =
      total_jobs_ == 0 ? 1.0 : static_cast<double>(ended_jobs) / static_cast<double>(total_jobs_);
  const int width = 40;
  const int filled = static_cast<int>(fraction * width);
  std::fprintf(stderr, "\r[%s%s] %5.1f%% %zu/%zu jobs, t=%s s%s",
               std::string(static_cast<std::size_t>(filled), '=').c_str(),
               std::string(static_cast<std::size_t>(width - filled), ' ').c_str(), 100.0 * fraction,
               ended_jobs, total_jobs_, format_seconds(now).c_str(), done ? "\n" : "");
}

}  // namespace batfill::simulator
