#include "batfill/core/queue_order.hpp"
#include "batfill/common/text.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace batfill {
namespace {

struct OrderName {
  QueueOrder order;
  const char* name;
};

constexpr OrderName kOrders[] = {
    {QueueOrder::kFcfs, "fcfs"},
    {QueueOrder::kLcfs, "lcfs"},
    {QueueOrder::kAscWalltime, "asc_walltime"},
    {QueueOrder::kDescWalltime, "desc_walltime"},
    {QueueOrder::kAscSize, "asc_size"},
    {QueueOrder::kDescSize, "desc_size"},
    {QueueOrder::kDescSlowdown, "desc_slowdown"},
    {QueueOrder::kDescBoundedSlowdown, "desc_bounded_slowdown"},
    {QueueOrder::kWfp3, "wfp3"},
    {QueueOrder::kUnicep, "unicep"},
    {QueueOrder::kWfp3Rlscheduler, "wfp3_rlscheduler"},
    {QueueOrder::kUnicepRlscheduler, "unicep_rlscheduler"},
    {QueueOrder::kF1, "f1"},
    {QueueOrder::kF2, "f2"},
    {QueueOrder::kF3, "f3"},
    {QueueOrder::kF4, "f4"},
};

// Below this, bounded slowdown treats a job as this long (docs/semantics.md#batfills-own-metrics
// uses the same 10 s).
constexpr Time kSlowdownBound = from_seconds(10);

bool fcfs_before(const Job& a, const Job& b) {
  if (a.submit_time != b.submit_time) return a.submit_time < b.submit_time;
  return job_id_less(a.id, b.id);
}

// A job without a limit sorts as the longest possible one.
Time walltime(const Job& job) { return job.time_limit; }  // kNoTimeLimit sorts last

// The slowdown a waiting job would have if it started now and ran its whole limit (the user's
// estimate stands in for the runtime):
//   slowdown          = (now - submit + walltime) / walltime
//   bounded slowdown  = max(1, (now - submit + walltime) / max(walltime, 10 s))
// as the metrics define them (docs/semantics.md#batfills-own-metrics). batsched's orders of the
// same names use plain waiting time `now - submit` for "slowdown" and waiting time over a constant
// for "bounded slowdown"; both then sort exactly like FCFS, hence the textbook definitions here. A
// zero limit divides by 1 µs; a job without a limit has slowdown 1. Compared exactly as 128-bit
// cross products.
__extension__ typedef __int128 Wide;  // GCC/Clang builtin; -Wpedantic knows no 128-bit type

struct Slowdown {
  Wide numerator;
  Wide denominator;
};

Slowdown slowdown(const Job& job, Time now, Time bound) {
  if (!job.has_time_limit()) return {1, 1};
  const Time waited = std::max<Time>(now - job.submit_time, 0);
  const Slowdown s{static_cast<Wide>(waited) + job.time_limit,
                   std::max({job.time_limit, bound, Time{1}})};
  return s.numerator < s.denominator ? Slowdown{1, 1} : s;
}

// -1 when a is smaller, 0 when equal, 1 when larger.
int compare(const Slowdown& a, const Slowdown& b) {
  const Wide left = a.numerator * b.denominator;
  const Wide right = b.numerator * a.denominator;
  return left < right ? -1 : (left > right ? 1 : 0);
}

// The score orders of the learned-scheduler literature (docs/semantics.md, "Queue orders"),
// smallest score first, computed in double precision on seconds exactly as RLScheduler computes
// them, so that equal inputs sort alike. n: requested nodes, r: walltime (s), s: submission (s),
// w: waiting time (s). A job without walltime has no score and sorts after those with one.
double seconds(Time time) { return static_cast<double>(time) / 1e6; }

// Keeps log2(n) of a one-node job, 0, from dividing by zero, as RLScheduler does.
constexpr double kUnicepEpsilon = 1e-15;

double score(QueueOrder order, const Job& job, Time now) {
  const double n = job.nodes;
  const double r = seconds(job.time_limit);
  const double s = seconds(job.submit_time);
  // RLScheduler computes the waiting time of a job that has not started as its start time
  // "not started" (-1) minus its submission time.
  const double waited = seconds(std::max<Time>(now - job.submit_time, 0));
  const double rl_waited = -1.0 - s;
  // Dividing by a zero walltime would give NaN, which no order can sort: it counts as 1 µs.
  // (Walltimes are never negative, but in batfill.gym's episodes, where a trace's missing
  // walltime is its runtime, -1 when that is unknown, as RLScheduler reads traces.)
  const double divisor = r == 0 ? 1e-6 : r;
  switch (order) {
    case QueueOrder::kWfp3:
      return -std::pow(waited / divisor, 3.0) * n;
    case QueueOrder::kWfp3Rlscheduler:
      return -std::pow(rl_waited / divisor, 3.0) * n;
    case QueueOrder::kUnicep:
      return -(waited + kUnicepEpsilon) / (std::log2(n + kUnicepEpsilon) * divisor);
    case QueueOrder::kUnicepRlscheduler:
      return -(rl_waited + kUnicepEpsilon) / (std::log2(n + kUnicepEpsilon) * divisor);
    case QueueOrder::kF1:
      return std::log10(r > 0 ? r : 0.1) * n + 870 * std::log10(s > 0 ? s : 0.1);
    case QueueOrder::kF2:
      return std::sqrt(r) * n + 25600 * std::log10(s);
    case QueueOrder::kF3:
      return r * n + 6860000 * std::log10(s);
    case QueueOrder::kF4:
      return r * std::sqrt(n) + 530000 * std::log10(s);
    default:
      return 0;
  }
}

bool is_score_order(QueueOrder order) {
  return order >= QueueOrder::kWfp3 && order <= QueueOrder::kF4;
}

int compare_scores(QueueOrder order, const Job& a, const Job& b, Time now) {
  if (a.has_time_limit() != b.has_time_limit()) return a.has_time_limit() ? -1 : 1;
  if (!a.has_time_limit()) return 0;
  const double x = score(order, a, now);
  const double y = score(order, b, now);
  return x < y ? -1 : (y < x ? 1 : 0);
}

}  // namespace

QueueOrder parse_queue_order(const std::string& name) {
  for (const OrderName& entry : kOrders) {
    if (name == entry.name) return entry.order;
  }
  throw std::invalid_argument("unknown queue order " + quoted(name) +
                              " (valid: " + join(queue_order_names()) + ")");
}

std::string to_string(QueueOrder order) {
  for (const OrderName& entry : kOrders) {
    if (entry.order == order) return entry.name;
  }
  return "?";
}

std::vector<std::string> queue_order_names() {
  std::vector<std::string> names;
  for (const OrderName& entry : kOrders) names.emplace_back(entry.name);
  return names;
}

bool depends_on_time(QueueOrder order) {
  return order == QueueOrder::kDescSlowdown || order == QueueOrder::kDescBoundedSlowdown ||
         order == QueueOrder::kWfp3 || order == QueueOrder::kUnicep;
}

bool queued_before(QueueOrder order, const Job& a, const Job& b, Time now) {
  // Each order's own key; 0 means a tie, settled by FCFS below.
  int key = 0;  // < 0: a first, > 0: b first
  auto by = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (order) {
    case QueueOrder::kFcfs:
      break;
    case QueueOrder::kLcfs:
      key = by(b.submit_time, a.submit_time);
      break;
    case QueueOrder::kAscWalltime:
      key = by(walltime(a), walltime(b));
      break;
    case QueueOrder::kDescWalltime:
      key = by(walltime(b), walltime(a));
      break;
    case QueueOrder::kAscSize:
      key = by(a.nodes, b.nodes);
      break;
    case QueueOrder::kDescSize:
      key = by(b.nodes, a.nodes);
      break;
    case QueueOrder::kDescSlowdown:
      key = compare(slowdown(b, now, 0), slowdown(a, now, 0));
      break;
    case QueueOrder::kDescBoundedSlowdown:
      key = compare(slowdown(b, now, kSlowdownBound), slowdown(a, now, kSlowdownBound));
      break;
    default:
      if (is_score_order(order)) key = compare_scores(order, a, b, now);
      break;
  }
  if (key != 0) return key < 0;
  return fcfs_before(a, b);
}

}  // namespace batfill
