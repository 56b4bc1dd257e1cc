#include <algorithm>
#include <map>
#include <stdexcept>

#include "batfill/check/schedule_check.hpp"
#include "batfill/common/text.hpp"
#include "csv_records.hpp"

namespace batfill::check {
namespace {

constexpr int kSwitchingOn = -1;
constexpr int kSwitchingOff = -2;

// Each machine's open span, if any, as rows come.
class SpanBuilder {
 public:
  void row(int machine, int pstate, Time time, int line) {
    const auto open = open_.find(machine);
    const bool has_open = open != open_.end();
    if (pstate == kSwitchingOff) {
      begin(machine, "switching off", time, line);
    } else if (pstate == kSwitchingOn) {
      if (has_open) close(open, time);
      begin(machine, "switching on", time, line);
    } else if (has_open) {
      const bool was_switching_off = std::string(open->second.state) == "switching off";
      close(open, time);
      if (was_switching_off) begin(machine, "sleeping", time, line);
    }
  }

  std::vector<PowerSpan> finish() {
    for (auto& [machine, span] : open_) spans_.push_back(span);
    open_.clear();
    return std::move(spans_);
  }

 private:
  void begin(int machine, const char* state, Time time, int line) {
    open_[machine] = PowerSpan{machine, state, line, time, kNever};
  }
  void close(std::map<int, PowerSpan>::iterator open, Time time) {
    open->second.end = time;
    spans_.push_back(open->second);
    open_.erase(open);
  }

  std::map<int, PowerSpan> open_;
  std::vector<PowerSpan> spans_;
};

int parse_pstate(const std::string& text) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || value < kSwitchingOff ||
      value > 1'000'000) {
    throw std::runtime_error("column 'new_pstate': not a pstate: " + quoted(text));
  }
  return static_cast<int>(value);
}

}  // namespace

std::vector<PowerSpan> read_pstate_changes_csv(const std::string& path, const std::string& text) {
  SpanBuilder builder;
  read_csv(path, text, [&](const Columns& columns) -> RowReader {
    const std::size_t time = columns.index("time");
    const std::size_t machines = columns.index("machine_id");
    const std::size_t pstate = columns.index("new_pstate");
    return [&builder, time, machines, pstate](const std::vector<std::string>& fields, int line) {
      const Time at = parse_time(fields.at(time), "time");
      const int target = parse_pstate(fields.at(pstate));
      MachineSet ids;
      try {
        ids = parse_machine_set(fields.at(machines));
      } catch (const std::invalid_argument& error) {
        throw std::runtime_error(std::string("column 'machine_id': ") + error.what());
      }
      for_each_id(ids, [&](int id) { builder.row(id, target, at, line); });
    };
  });
  return builder.finish();
}

}  // namespace batfill::check
