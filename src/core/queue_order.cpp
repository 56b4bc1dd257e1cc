#include "batfill/core/queue_order.hpp"
#include "batfill/common/text.hpp"

#include <algorithm>
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
  return order == QueueOrder::kDescSlowdown || order == QueueOrder::kDescBoundedSlowdown;
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
  }
  if (key != 0) return key < 0;
  return fcfs_before(a, b);
}

}  // namespace batfill
