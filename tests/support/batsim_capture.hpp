#pragma once
// Reads tests/protocol/data/real-batsim-4.2.1-messages.txt: exchanges captured between a real
// Batsim 4.2.1 and batsched / a Python scheduler.

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace batfill::protocol::testing {

struct CapturedLine {
  bool from_batsim = true;  // BATSIM->SCHED (request) or SCHED->BATSIM (reply)
  int exchange = 0;
  std::string json;
};

// The lines of the section "### Run <run>: ...", in file order.
inline std::vector<CapturedLine> captured_run(const std::string& run) {
  std::ifstream file(BATFILL_SOURCE_DIR "/tests/protocol/data/real-batsim-4.2.1-messages.txt");
  if (!file) throw std::runtime_error("cannot open the captured Batsim messages");
  std::vector<CapturedLine> lines;
  bool inside = false;
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind("### Run ", 0) == 0) {
      inside = line.rfind("### Run " + run + ":", 0) == 0;
      continue;
    }
    if (!inside || line.empty() || line[0] == '#') continue;
    CapturedLine captured;
    const std::size_t first_space = line.find(' ');
    const std::size_t second_space = line.find(' ', first_space + 1);
    captured.from_batsim = line.compare(0, first_space, "BATSIM->SCHED") == 0;
    captured.exchange = std::stoi(line.substr(first_space + 1, second_space - first_space - 1));
    captured.json = line.substr(second_space + 1);
    lines.push_back(captured);
  }
  if (lines.empty()) throw std::runtime_error("no captured run '" + run + "'");
  return lines;
}

}  // namespace batfill::protocol::testing
