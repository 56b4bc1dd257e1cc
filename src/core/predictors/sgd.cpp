// The learned predictor of Gaussier et al. (SC'15),
// docs/semantics.md#predictions-correctors-and-backfill-order: a linear model over 19 per-job
// features and their quadratic products, trained online at every completion by NAG (normalized
// adaptive gradient) on a composite loss: square on both sides, under-prediction weighted gammaL =
// 1, over-prediction gammaR = 100, per-job weight 5 + ln(m / r), L2 penalty.
//
// Computed in double in seconds, in the order the rule gives (sums left to right, no fused
// multiply-add: this file is compiled with -ffp-contract=off), then returned as an integral
// number of seconds.

#include <array>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>

#include "batfill/common/text.hpp"
#include "batfill/core/prediction.hpp"

namespace batfill {
namespace {

constexpr std::size_t kBase = 19;
constexpr std::size_t kPaired = 16;  // x1..x16 are multiplied pairwise
constexpr std::size_t kSize = kBase + kPaired * (kPaired - 1) / 2 + (kBase - 1);  // 157
using Vector = std::array<double, kSize>;

struct Settings {
  double eta = 5000.0;
  double lambda = 4e9;
  double left = 1.0;     // gammaL, weight of under-prediction
  double right = 100.0;  // gammaR, weight of over-prediction
  double threshold = 0.0;
};

double seconds(Time t) { return static_cast<double>(t / kMicrosecondsPerSecond); }

class Sgd final : public Predictor {
 public:
  explicit Sgd(Settings settings) : settings_(settings) {
    w_.fill(0.0);
    s_.fill(1e-9);
    g_.fill(1e-9);
  }

  bool uses_running_jobs() const override { return true; }

  Time predict(const Job& job, Time now, const std::vector<RunningJobInfo>& running) override {
    const Vector x = features(job, now, running);
    features_[job.id] = x;
    const double v = std::fabs(dot(x));
    const double q = seconds(job.time_limit);
    if (job.has_time_limit() && v >= q) return job.time_limit;
    return from_seconds(std::max<std::int64_t>(1, static_cast<std::int64_t>(v)));
  }

  bool learns() const override { return true; }
  void learn(const Job& job, Time runtime, Time now) override {
    User& user = users_[job.user];
    user.j3 = user.j2;
    user.j2 = user.j1;
    user.j1 = seconds(job.submit_time);
    user.count += 1.0;
    user.runtimes += seconds(runtime);
    user.nodes += static_cast<double>(job.nodes);
    user.last_end = seconds(now);
    const auto stored = features_.find(job.id);
    if (stored == features_.end()) return;
    update(stored->second, seconds(runtime), static_cast<double>(job.nodes));
    features_.erase(stored);
  }

 private:
  struct User {
    double j1 = -1, j2 = -1, j3 = -1;  // submit times of the last three completed jobs; -1: none
    double count = 0, runtimes = 0, nodes = 0;
    double last_end = 0;
  };

  Vector features(const Job& job, Time now, const std::vector<RunningJobInfo>& running) {
    const User& user = users_[job.user];
    const double t = seconds(now);
    const double q = seconds(job.time_limit);
    const double m = static_cast<double>(job.nodes);
    std::array<double, kBase> b{};
    b[0] = 1.0;
    const auto since = [&](double submit) { return submit < 0 ? q : std::min(q, t - submit); };
    b[1] = since(user.j1);
    b[2] = since(user.j2);
    b[3] = since(user.j3);
    b[4] = q;
    b[5] = user.j2 >= 0 ? 0.5 * (b[1] + b[2]) : (user.j1 >= 0 ? b[1] : q);
    b[6] = user.j3 >= 0 ? 0.33 * ((b[1] + b[2]) + b[3]) : b[5];  // 0.33 as in the paper's code
    b[7] = user.count != 0 ? user.runtimes / user.count : 0.0;
    b[8] = user.last_end != 0 ? t - user.last_end : 0.0;
    b[9] = user.count != 0 ? m / (user.nodes / user.count) : 0.0;
    std::int64_t nodes = 0, count = 0;
    Time elapsed = 0, longest = 0;
    for (const RunningJobInfo& other : running) {
      if (other.job->user != job.user) continue;
      const Time ran = (now - other.start) / kMicrosecondsPerSecond;
      nodes += other.job->nodes;
      elapsed += ran;
      ++count;
      longest = std::max(longest, ran);
    }
    b[10] = static_cast<double>(nodes);
    b[11] = static_cast<double>(elapsed);
    b[12] = static_cast<double>(count);
    b[13] = static_cast<double>(longest);
    const Time second = now / kMicrosecondsPerSecond;
    const double day = ((2.0 * M_PI) * static_cast<double>(second % 86400)) / 86400.0;
    const double week = ((2.0 * M_PI) * static_cast<double>(second % 604800)) / 604800.0;
    b[14] = std::cos(day);
    b[15] = std::sin(day);
    b[16] = std::cos(week);
    b[17] = std::sin(week);
    b[18] = m;
    Vector x{};
    std::size_t k = 0;
    for (double value : b) x[k++] = value;
    for (std::size_t i = 1; i <= kPaired; ++i) {
      for (std::size_t j = i + 1; j <= kPaired; ++j) x[k++] = b[i] * b[j];
    }
    for (std::size_t i = 1; i < kBase; ++i) x[k++] = b[i] * b[i];
    return x;
  }

  double dot(const Vector& x) const {
    double v = 0.0;
    for (std::size_t i = 0; i < kSize; ++i) v += w_[i] * x[i];
    return v;
  }

  // One NAG step towards target y with the composite square/square loss.
  void update(const Vector& x, double y, double m) {
    const double weight = 5.0 + std::log(m / y);  // negative for long jobs: kept, as published
    for (std::size_t i = 0; i < kSize; ++i) {
      const double a = std::fabs(x[i]);
      if (a > s_[i]) {
        w_[i] = w_[i] * (s_[i] / a);
        s_[i] = a;
      }
    }
    double norm = 0.0;
    for (std::size_t i = 0; i < kSize; ++i) norm += (x[i] * x[i]) / (s_[i] * s_[i]);
    big_n_ += norm;
    const double v = dot(x);
    const double e = v - y;
    const double theta = settings_.threshold;
    Vector next{};
    for (std::size_t i = 0; i < kSize; ++i) {
      double data = 0.0;
      if (e > theta) data = weight * ((2.0 * settings_.right * x[i]) * (e - theta));
      if (e < theta) data = (-weight) * ((2.0 * settings_.left * x[i]) * ((theta - v) + y));
      const double gradient = data + settings_.lambda * w_[i];
      g_[i] += gradient * gradient;
      const double step = (-settings_.eta * gradient) / (std::sqrt((big_n_ * g_[i]) / n_) * s_[i]);
      next[i] = step + w_[i];
    }
    w_ = next;
    n_ += 2.0;
  }

  Settings settings_;
  Vector w_, s_, g_;
  double big_n_ = 1e-9;
  double n_ = 1.0;
  std::unordered_map<int, User> users_;
  std::unordered_map<JobId, Vector> features_;  // stored at submission, learned at completion
};

double number_option(const std::string& key, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value)) {
    throw std::invalid_argument("predictor 'sgd': option " + quoted(key) +
                                " must be a number, got " + quoted(text));
  }
  return value;
}

}  // namespace

std::unique_ptr<Predictor> make_sgd_predictor(const PredictorOptions& options) {
  Settings settings;
  for (const auto& [key, text] : options) {
    double* target = key == "eta"          ? &settings.eta
                     : key == "lambda"     ? &settings.lambda
                     : key == "leftparam"  ? &settings.left
                     : key == "rightparam" ? &settings.right
                     : key == "threshold"  ? &settings.threshold
                                           : nullptr;
    if (target == nullptr) {
      throw std::invalid_argument("predictor 'sgd': unknown option " + quoted(key) +
                                  " (valid: eta, lambda, leftparam, rightparam, threshold)");
    }
    *target = number_option(key, text);
  }
  return std::make_unique<Sgd>(settings);
}

}  // namespace batfill
