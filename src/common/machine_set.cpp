#include "batfill/common/machine_set.hpp"

#include <cctype>
#include <charconv>
#include <sstream>
#include <stdexcept>

namespace batfill {
namespace {

using Interval = boost::icl::discrete_interval<int>;

int parse_id(const std::string& part, const std::string& digits) {
  if (digits.empty() || digits.size() > 9) {
    throw std::invalid_argument("bad machine id in interval set part '" + part + "'");
  }
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      throw std::invalid_argument("bad machine id in interval set part '" + part + "'");
    }
  }
  return std::stoi(digits);
}

}  // namespace

MachineSet machine_range(int first, int last) {
  MachineSet set;
  if (first <= last) set.insert(Interval::closed(first, last));
  return set;
}

int machine_count(const MachineSet& machines) {
  return static_cast<int>(boost::icl::cardinality(machines));
}

std::string to_string(const MachineSet& machines) {
  std::string text;
  append_machine_set(text, machines);
  return text;
}

void append_machine_set(std::string& out, const MachineSet& machines) {
  char digits[16];
  const auto append_id = [&](int id) {
    const char* end = std::to_chars(digits, digits + sizeof digits, id).ptr;
    out.append(digits, static_cast<std::size_t>(end - digits));
  };
  bool first_part = true;
  for (const Interval& interval : machines) {
    const int first = boost::icl::first(interval);
    const int last = boost::icl::last(interval);
    if (!first_part) out += ' ';
    first_part = false;
    append_id(first);
    if (last != first) {
      out += '-';
      append_id(last);
    }
  }
}

MachineSet parse_machine_set(const std::string& text) {
  MachineSet set;
  std::istringstream parts(text);
  std::string part;
  while (parts >> part) {
    const std::size_t dash = part.find('-');
    if (dash == std::string::npos) {
      const int id = parse_id(part, part);
      set.insert(Interval::closed(id, id));
      continue;
    }
    const int first = parse_id(part, part.substr(0, dash));
    const int last = parse_id(part, part.substr(dash + 1));
    if (last < first) {
      throw std::invalid_argument("interval set part '" + part + "' ends before it starts");
    }
    set.insert(Interval::closed(first, last));
  }
  return set;
}

}  // namespace batfill
