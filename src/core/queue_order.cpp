#include "batfill/core/queue_order.hpp"

#include <stdexcept>

namespace batfill {
namespace {

struct OrderName {
  QueueOrder order;
  const char* name;
};

constexpr OrderName kOrders[] = {
    {QueueOrder::kFcfs, "fcfs"},
};

bool fcfs_before(const Job& a, const Job& b) {
  if (a.submit_time != b.submit_time) return a.submit_time < b.submit_time;
  return job_id_less(a.id, b.id);
}

}  // namespace

QueueOrder parse_queue_order(const std::string& name) {
  for (const OrderName& entry : kOrders) {
    if (name == entry.name) return entry.order;
  }
  std::string valid;
  for (const std::string& known : queue_order_names()) valid += (valid.empty() ? "" : ", ") + known;
  throw std::invalid_argument("unknown queue order '" + name + "' (valid: " + valid + ")");
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

bool depends_on_time(QueueOrder /*order*/) { return false; }

bool queued_before(QueueOrder order, const Job& a, const Job& b, Time /*now*/) {
  switch (order) {
    case QueueOrder::kFcfs:
      return fcfs_before(a, b);
  }
  return fcfs_before(a, b);
}

}  // namespace batfill
