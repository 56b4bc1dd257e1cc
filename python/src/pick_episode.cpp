#include "pick_episode.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace batfill::python {
namespace {

// RLScheduler's normalisation of the waiting time: 12 hours count as the most.
constexpr double kMaxWait = 12 * 60 * 60;
constexpr double kBelowOne = 1.0 - 1e-5;
constexpr std::int64_t kNoRelease = std::numeric_limits<std::int64_t>::max();

// std::stable_sort's result for an order on integers, without the temporary buffer it
// allocates at every call: the queue and the running jobs are sorted at every event and are
// mostly short and nearly in order already, where an insertion sort is cheapest.
template <typename Less>
void sort_stably(std::vector<std::size_t>& items, Less less) {
  constexpr std::size_t kShort = 64;
  if (items.size() > kShort) {
    std::stable_sort(items.begin(), items.end(), less);
    return;
  }
  for (std::size_t i = 1; i < items.size(); ++i) {
    const std::size_t item = items[i];
    std::size_t j = i;
    for (; j > 0 && less(item, items[j - 1]); --j) items[j] = items[j - 1];
    items[j] = item;
  }
}

}  // namespace

PickEpisode::PickEpisode(std::shared_ptr<const PickTrace> trace, PickOptions options)
    : trace_(std::move(trace)), options_(options) {
  if (trace_->size() < options_.window) {
    throw std::invalid_argument("the trace has " + std::to_string(trace_->size()) +
                                " jobs, fewer than one episode's " +
                                std::to_string(options_.window));
  }
}

void PickEpisode::reset(std::size_t start) {
  if (start + options_.window > trace_->size()) {
    throw std::out_of_range("window start " + std::to_string(start) + " leaves fewer than " +
                            std::to_string(options_.window) + " jobs of the trace");
  }
  start_ = start;
  end_ = start + options_.window;
  now_ = trace_->submit[start];
  free_nodes_ = trace_->machine_nodes;
  done_ = false;
  queue_.assign(1, start);
  shown_.clear();
  next_ = start + 1;
  running_.clear();
  started_.assign(options_.window, -1);
  scores_.clear();
}

bool PickEpisode::is_waiting(std::size_t job) const {
  return std::find(queue_.begin(), queue_.end(), job) != queue_.end();
}

bool PickEpisode::fits(std::size_t job) const { return trace_->nodes[job] <= free_nodes_; }

void PickEpisode::start_job(std::size_t job) {
  start_of(job) = now_;
  free_nodes_ -= trace_->nodes[job];
  running_.push_back(job);
  scores_.push_back(score(job));
  queue_.erase(std::find(queue_.begin(), queue_.end(), job));
}

void PickEpisode::arrive() {
  now_ = std::max(now_, trace_->submit[next_]);
  queue_.push_back(next_++);
}

void PickEpisode::release_first() {
  const std::size_t job = running_.front();
  now_ = std::max(now_, start_of(job) + trace_->runtime[job]);
  free_nodes_ += trace_->nodes[job];
  running_.erase(running_.begin());
}

void PickEpisode::sort_running_by_end() {
  sort_stably(running_, [this](std::size_t a, std::size_t b) {
    return start_of(a) + trace_->runtime[a] < start_of(b) + trace_->runtime[b];
  });
}

// One event: the next arrival if it comes no later than the first completion, else that
// completion (an arrival and a completion at the same time: the arrival first).
void PickEpisode::advance_one_event() {
  if (running_.empty()) {
    throw std::logic_error("a picked job waits for nodes while none is running");
  }
  sort_running_by_end();
  const std::int64_t release = start_of(running_.front()) + trace_->runtime[running_.front()];
  if (next_ < end_ && trace_->submit[next_] <= release) {
    arrive();
  } else {
    release_first();
  }
}

void PickEpisode::wait_until_fits(std::size_t job) {
  while (!fits(job)) advance_one_event();
}

// While the picked job waits, any job, oldest submission first, starts if it fits now and its
// walltime ends strictly before the picked job's shadow time, computed once from the running
// jobs' walltimes (no extra nodes).
void PickEpisode::backfill_until_fits(std::size_t job) {
  sort_stably(running_, [this](std::size_t a, std::size_t b) {
    return start_of(a) + trace_->requested_time[a] < start_of(b) + trace_->requested_time[b];
  });
  std::int64_t shadow = now_;
  int free = free_nodes_;
  for (const std::size_t other : running_) {
    free += trace_->nodes[other];
    shadow = start_of(other) + trace_->requested_time[other];
    if (free >= trace_->nodes[job]) break;
  }
  while (!fits(job)) {
    sort_stably(queue_, [this](std::size_t a, std::size_t b) {
      return trace_->submit[a] < trace_->submit[b];
    });
    const std::vector<std::size_t> candidates = queue_;
    for (const std::size_t candidate : candidates) {
      if (fits(candidate) && now_ + trace_->requested_time[candidate] < shadow) {
        start_job(candidate);
      }
    }
    advance_one_event();
  }
}

// With the queue empty, moves on to the next arrival; false when no job is left to arrive.
bool PickEpisode::fill_queue() {
  if (!queue_.empty()) return true;
  if (next_ >= end_) return false;
  for (;;) {
    std::int64_t release = kNoRelease;
    if (!running_.empty()) {
      sort_running_by_end();
      release = start_of(running_.front()) + trace_->runtime[running_.front()];
    }
    if (trace_->submit[next_] <= release) {
      arrive();
      return true;
    }
    release_first();
  }
}

bool PickEpisode::step(std::size_t job) {
  if (done_) throw std::logic_error("the episode is over: reset it");
  if (!is_waiting(job)) throw std::invalid_argument("job is not waiting");
  if (!fits(job)) {
    if (options_.backfill) {
      backfill_until_fits(job);
    } else {
      wait_until_fits(job);
    }
  }
  start_job(job);
  done_ = !fill_queue();
  return done_;
}

std::size_t PickEpisode::sort_queue(QueueOrder order) {
  const Time now = from_seconds(now_);
  // std::stable_sort itself: F2's NaN scores (a walltime of -1) tie with every job, an order
  // in which another stable sort could give another result.
  std::stable_sort(queue_.begin(), queue_.end(), [&](std::size_t a, std::size_t b) {
    return queued_before(order, trace_->core_jobs[a], trace_->core_jobs[b], now);
  });
  return queue_.front();
}

double PickEpisode::score(std::size_t job) const {
  const double wait = static_cast<double>(now_ - trace_->submit[job]);
  const double run = static_cast<double>(trace_->runtime[job]);
  switch (options_.metric) {
    case PickMetric::kBoundedSlowdown:
      return std::max(1.0, (wait + run) / std::max(run, 10.0));
    case PickMetric::kWait:
      return wait;
    case PickMetric::kTurnaround:
      return wait + run;
    case PickMetric::kUtilization:
      return -static_cast<double>(trace_->runtime[job] * trace_->processors[job]);
    case PickMetric::kSlowdown:
      return (wait + run) / run;
  }
  return 0;
}

// RLScheduler divides each job's value first, then adds them up in start order.
double PickEpisode::total() const {
  double divisor = static_cast<double>(options_.window);
  if (options_.metric == PickMetric::kUtilization) {
    divisor = static_cast<double>((now_ - trace_->submit[start_]) * trace_->machine_processors);
  }
  double sum = 0;
  for (const double value : scores_) sum += value / divisor;
  return sum;
}

std::vector<std::size_t> PickEpisode::visible() const {
  std::vector<std::size_t> fcfs = queue_;
  sort_stably(fcfs, [this](std::size_t a, std::size_t b) {
    return trace_->submit[a] < trace_->submit[b];
  });
  if (fcfs.size() <= options_.slots) return fcfs;
  // A long queue shows the first jobs of SJF and smallest-first, alternately, each once.
  auto first_of = [&](QueueOrder order) {
    std::vector<std::size_t> sorted = fcfs;
    sort_stably(sorted, [&](std::size_t a, std::size_t b) {
      return queued_before(order, trace_->core_jobs[a], trace_->core_jobs[b], 0);
    });
    sorted.resize(options_.slots);
    return sorted;
  };
  const std::vector<std::size_t> shortest = first_of(QueueOrder::kAscWalltime);
  const std::vector<std::size_t> smallest = first_of(QueueOrder::kAscSize);
  std::vector<std::size_t> shown;
  auto show = [&](std::size_t job) {
    if (shown.size() < options_.slots &&
        std::find(shown.begin(), shown.end(), job) == shown.end()) {
      shown.push_back(job);
    }
  };
  for (std::size_t i = 0; shown.size() < options_.slots; ++i) {
    show(shortest[i]);
    show(smallest[i]);
  }
  return shown;
}

bool PickEpisode::step_slot(std::size_t slot) {
  if (slot >= shown_.size()) {
    throw std::out_of_range("action " + std::to_string(slot) + ": slot empty (" +
                            std::to_string(shown_.size()) + " jobs waiting in view)");
  }
  return step(shown_[slot]);
}

void PickEpisode::observe(float* out) {
  shown_ = done_ ? std::vector<std::size_t>{} : visible();
  const std::vector<std::size_t>& shown = shown_;
  for (std::size_t slot = 0; slot < options_.slots; ++slot) {
    float* row = out + slot * kPickFeatures;
    if (slot >= shown.size()) {
      // An empty slot, as RLScheduler pads: no wait, every other feature 1, cannot start.
      std::fill(row, row + kPickFeatures, 1.0F);
      row[0] = 0.0F;
      row[kPickFeatures - 1] = 0.0F;
      continue;
    }
    const std::size_t job = shown[slot];
    const double wait = static_cast<double>(now_ - trace_->submit[job]);
    row[0] = static_cast<float>(std::min(wait / kMaxWait, kBelowOne));
    for (std::size_t f = 0; f < kPickFeatures - 2; ++f) {
      row[1 + f] = static_cast<float>(trace_->static_features[job * (kPickFeatures - 2) + f]);
    }
    row[kPickFeatures - 1] = static_cast<float>(fits(job) ? kBelowOne : 1e-5);
  }
}

}  // namespace batfill::python
