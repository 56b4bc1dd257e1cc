#include "batfill/core/job.hpp"

#include <cstddef>

namespace batfill {
namespace {

struct SplitId {
  std::string workload;  // up to and including '!', empty for plain ids
  std::string name;
};

SplitId split(const JobId& id) {
  const std::size_t bang = id.rfind('!');
  if (bang == std::string::npos) return {"", id};
  return {id.substr(0, bang + 1), id.substr(bang + 1)};
}

bool is_natural_number(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Compares two digit strings by value without converting (ids may exceed 64 bits).
int compare_numbers(const std::string& a, const std::string& b) {
  const std::size_t a_start = a.find_first_not_of('0');
  const std::size_t b_start = b.find_first_not_of('0');
  const std::string a_digits = a_start == std::string::npos ? "" : a.substr(a_start);
  const std::string b_digits = b_start == std::string::npos ? "" : b.substr(b_start);
  if (a_digits.size() != b_digits.size()) return a_digits.size() < b_digits.size() ? -1 : 1;
  return a_digits.compare(b_digits);
}

}  // namespace

bool job_id_less(const JobId& a, const JobId& b) {
  const SplitId sa = split(a);
  const SplitId sb = split(b);
  if (sa.workload != sb.workload) return sa.workload < sb.workload;
  if (is_natural_number(sa.name) && is_natural_number(sb.name)) {
    const int by_value = compare_numbers(sa.name, sb.name);
    if (by_value != 0) return by_value < 0;
  }
  return sa.name < sb.name;
}

}  // namespace batfill
