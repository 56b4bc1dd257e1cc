#include "batfill/workload/transform.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include "batfill/common/text.hpp"
#include "reader_support.hpp"

namespace batfill::workload {
namespace {

// A uniform double in [-1, 1) from the top 53 bits of the generator's output: unlike the
// standard distributions, this mapping is the same in every standard library.
double uniform_sign_fraction(std::mt19937_64& random) {
  return static_cast<double>(random() >> 11) * 0x1.0p-52 - 1.0;
}

// Rounded to the microsecond, halves away from zero; nullopt from 2^126 µs (twice kMaxTime),
// well before the cast to Time could overflow.
std::optional<Time> rounded(long double microseconds) {
  const long double nearest = std::round(microseconds);
  if (!(std::fabs(nearest) < 0x1p126L)) return std::nullopt;
  return static_cast<Time>(nearest);
}

// Load scaling of job `id`'s submit time, `first` being the trace's first submission. A factor
// below 1 stretches the trace, possibly past the range (docs/semantics.md#time).
Time scaled(Time submit, Time first, double factor, const std::string& id) {
  if (factor == 1) return submit;
  const long double offset = static_cast<long double>(submit - first);
  const std::optional<Time> moved = rounded(offset / factor);
  if (!moved || first + *moved > kMaxTime) {
    throw std::invalid_argument("load factor " + shortest_text(factor) + " submits job " +
                                quoted(id) + " beyond batfill's time range (4.25e31 s)");
  }
  return first + *moved;
}

// Input shaking job by job, in trace order: each call draws the next random number.
class Shaker {
 public:
  Shaker(const Shake& shake, Time first) : random_(shake.seed), shake_(shake), previous_(first) {}

  Time shaken(Time submit) {
    const long double gap = static_cast<long double>(submit - previous_);
    const long double move = uniform_sign_fraction(random_) * shake_.fraction * gap;
    previous_ = submit;
    // |move| <= gap <= kMaxTime: always within rounded's range.
    return std::max<Time>(0, submit + *rounded(move));
  }

 private:
  std::mt19937_64 random_;
  Shake shake_;
  Time previous_;
};

// The jobs of a stream with their submit times transformed, in the order the whole-workload
// functions leave them. Shaking reorders jobs, but never past the previous submission: a job's
// gap is at most its distance to the previous job, and it moves by at most that (PCT <= 100),
// so no job read later can come before the last one read. Jobs wait in a heap until the trace
// has gone past their new time, which keeps only a window of the trace.
class TransformedJobStream : public JobStream {
 public:
  TransformedJobStream(std::unique_ptr<JobStream> jobs, double load_factor,
                       std::optional<Shake> shake)
      : jobs_(std::move(jobs)), load_factor_(load_factor), shake_(shake) {}

  const Workload& workload() const override { return jobs_->workload(); }
  std::size_t record_count() const override { return jobs_->record_count(); }
  bool has_user_ids() const override { return jobs_->has_user_ids(); }
  const Profile* profile_of(const WorkloadJob&) override { return current_.profile; }

  const WorkloadJob* next() override {
    if (!shake_) {
      if (!read()) return nullptr;
      current_ = std::move(read_);
      return &current_.job;
    }
    // Every later job comes at or after the last one read (see above): jobs before it are due.
    while (!ended_ && (waiting_.empty() || !(waiting_.front().job.job.submit_time < last_read_))) {
      if (!read()) break;
      read_.job.job.submit_time = shaker_->shaken(read_.job.job.submit_time);
      waiting_.push_back(std::move(read_));
      std::push_heap(waiting_.begin(), waiting_.end(), later);
    }
    if (waiting_.empty()) return nullptr;
    std::pop_heap(waiting_.begin(), waiting_.end(), later);
    current_ = std::move(waiting_.back());
    waiting_.pop_back();
    return &current_.job;
  }

 private:
  struct Entry {
    WorkloadJob job;
    const Profile* profile = nullptr;
    std::size_t order = 0;  // in the trace
  };
  // The heap's order, reversed: submit order, ties in trace order (a stable sort's result).
  static bool later(const Entry& a, const Entry& b) {
    if (detail::submitted_before(a.job.job, b.job.job)) return false;
    if (detail::submitted_before(b.job.job, a.job.job)) return true;
    return a.order > b.order;
  }

  // The next job of the trace, load-scaled, into read_; false at the end.
  bool read() {
    const WorkloadJob* job = jobs_->next();
    if (job == nullptr) return ended_ = true, false;
    read_.job = *job;
    read_.profile = jobs_->profile_of(*job);
    read_.order = count_++;
    Time& submit = read_.job.job.submit_time;
    if (count_ == 1) {
      first_ = submit;
      if (shake_) shaker_.emplace(*shake_, submit);  // the first job is never moved by scaling
    }
    submit = scaled(submit, first_, load_factor_, read_.job.job.id);
    last_read_ = submit;
    return true;
  }

  std::unique_ptr<JobStream> jobs_;
  double load_factor_;
  std::optional<Shake> shake_;
  std::optional<Shaker> shaker_;
  Time first_ = 0;      // the trace's first submission, before scaling
  Time last_read_ = 0;  // the scaled submit time of the last job read
  std::size_t count_ = 0;
  bool ended_ = false;
  Entry read_;
  std::vector<Entry> waiting_;  // shaking: a heap by submit order
  Entry current_;               // the job handed out last
};

}  // namespace

void check_load_factor(double factor) {
  if (!std::isfinite(factor) || factor <= 0) {
    throw std::invalid_argument("load factor must be a finite number > 0, got " +
                                shortest_text(factor));
  }
}

void scale_load(Workload& workload, double factor) {
  check_load_factor(factor);
  if (factor == 1 || workload.jobs.empty()) return;
  const Time first = workload.jobs.front().job.submit_time;
  for (WorkloadJob& job : workload.jobs) {
    job.job.submit_time = scaled(job.job.submit_time, first, factor, job.job.id);
  }
}

Shake parse_shake(const std::string& text) {
  const std::size_t colon = text.find(':');
  const std::string seed_text = text.substr(0, colon);
  Shake shake;
  std::size_t used = 0;
  try {
    shake.seed = std::stoull(seed_text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (seed_text.empty() || used != seed_text.size() || seed_text[0] == '-') {
    throw std::invalid_argument("--shake " + quoted(text) + ": SEED must be a whole number >= 0");
  }
  if (colon == std::string::npos) return shake;
  const std::optional<double> percent = detail::parse_number(text.substr(colon + 1));
  if (!percent || *percent < 0 || *percent > 100) {
    throw std::invalid_argument("--shake " + quoted(text) + ": PCT must be a number from 0 to 100");
  }
  shake.fraction = *percent / 100;
  return shake;
}

void shake_submissions(Workload& workload, const Shake& shake) {
  Shaker shaker(shake, workload.jobs.empty() ? 0 : workload.jobs.front().job.submit_time);
  for (WorkloadJob& job : workload.jobs) job.job.submit_time = shaker.shaken(job.job.submit_time);
  detail::sort_by_submission(workload);
}

std::unique_ptr<JobStream> transform_jobs(std::unique_ptr<JobStream> jobs, double load_factor,
                                          std::optional<Shake> shake) {
  check_load_factor(load_factor);
  // Beyond 100 % a job could overtake jobs read after it, which the stream cannot reorder.
  if (shake && !(shake->fraction >= 0 && shake->fraction <= 1)) {
    throw std::invalid_argument("shaking moves a job by at most its whole gap (PCT <= 100)");
  }
  if (load_factor == 1 && !shake) return jobs;
  return std::make_unique<TransformedJobStream>(std::move(jobs), load_factor, shake);
}

AppliedTransforms apply_transforms(std::unique_ptr<JobStream>& jobs, double load_factor,
                                   const std::optional<Shake>& shake) {
  AppliedTransforms applied;
  jobs = transform_jobs(std::move(jobs), load_factor, shake);
  if (load_factor != 1) {
    applied.load_factor = shortest_text(load_factor);
    applied.summary = "load factor " + applied.load_factor + " (inter-arrival times / " +
                      applied.load_factor + ")";
  }
  if (shake) {
    const std::string percent = shortest_text(100 * shake->fraction);
    applied.shake = std::to_string(shake->seed) + ":" + percent;
    applied.summary += std::string(applied.summary.empty() ? "" : "; ") +
                       "submit times shaken: seed " + std::to_string(shake->seed) + ", +-" +
                       percent + " % of each gap";
  }
  return applied;
}

}  // namespace batfill::workload
