#include "batfill/workload/transform.hpp"

#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>

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

}  // namespace

void scale_load(Workload& workload, double factor) {
  if (!std::isfinite(factor) || factor <= 0) {
    throw std::invalid_argument("load factor must be a finite number > 0, got " +
                                std::to_string(factor));
  }
  if (factor == 1 || workload.jobs.empty()) return;
  const Time first = workload.jobs.front().job.submit_time;
  for (WorkloadJob& job : workload.jobs) {
    const long double offset = static_cast<long double>(job.job.submit_time - first);
    // A factor below 1 stretches the trace, possibly past the range (docs/semantics.md §1.1).
    const std::optional<Time> scaled = rounded(offset / factor);
    if (!scaled || first + *scaled > kMaxTime) {
      throw std::invalid_argument("load factor " + std::to_string(factor) + " submits job " +
                                  quoted(job.job.id) + " beyond batfill's time range (4.25e31 s)");
    }
    job.job.submit_time = first + *scaled;
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
  std::mt19937_64 random(shake.seed);
  Time previous = workload.jobs.empty() ? 0 : workload.jobs.front().job.submit_time;
  for (WorkloadJob& job : workload.jobs) {
    const Time submit = job.job.submit_time;
    const long double gap = static_cast<long double>(submit - previous);
    const long double move = uniform_sign_fraction(random) * shake.fraction * gap;
    // |move| <= gap <= kMaxTime: always within rounded's range.
    job.job.submit_time = std::max<Time>(0, submit + *rounded(move));
    previous = submit;
  }
  detail::sort_by_submission(workload);
}

}  // namespace batfill::workload
