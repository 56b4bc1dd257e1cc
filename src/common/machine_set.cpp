#include "batfill/common/machine_set.hpp"

#include <cctype>
#include <charconv>
#include <stdexcept>
#include <string_view>

namespace batfill {
namespace {

using Interval = boost::icl::discrete_interval<int>;

int parse_id(std::string_view part, std::string_view digits) {
  const auto bad = [&] {
    return std::invalid_argument("bad machine id in interval set part '" + std::string(part) + "'");
  };
  if (digits.empty() || digits.size() > 9) throw bad();
  int id = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) throw bad();
    id = id * 10 + (c - '0');  // at most 9 digits: no overflow
  }
  return id;
}

// The parts of an interval set, separated by whitespace as a stream reads words; a message
// carries one set per completion, so no stream is built for it.
bool next_part(std::string_view& rest, std::string_view& part) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::size_t begin = 0;
  while (begin < rest.size() && space(rest[begin])) ++begin;
  if (begin == rest.size()) return false;
  std::size_t end = begin;
  while (end < rest.size() && !space(rest[end])) ++end;
  part = rest.substr(begin, end - begin);
  rest.remove_prefix(end);
  return true;
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

MachineSet parse_machine_set(std::string_view text) {
  MachineSet set;
  std::string_view part;
  while (next_part(text, part)) {
    const std::size_t dash = part.find('-');
    if (dash == std::string_view::npos) {
      const int id = parse_id(part, part);
      set.insert(Interval::closed(id, id));
      continue;
    }
    const int first = parse_id(part, part.substr(0, dash));
    const int last = parse_id(part, part.substr(dash + 1));
    if (last < first) {
      throw std::invalid_argument("interval set part '" + std::string(part) +
                                  "' ends before it starts");
    }
    set.insert(Interval::closed(first, last));
  }
  return set;
}

}  // namespace batfill
