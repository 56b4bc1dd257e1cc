#pragma once
// Where the adapter and `serve` say what they do: one line per note, to stderr by default.
// Errors are not logged here: they are thrown, and `serve` prints them once.

#include <iostream>
#include <string>

namespace batfill::adapter {

enum class Verbosity {
  kQuiet,  // warnings only (ignored events that might matter, overridden options)
  kInfo,   // + rejections, options in force, start and end of the simulation
  kDebug,  // + every exchange and decision
};

// "quiet", "info" or "debug"; throws std::invalid_argument listing them otherwise.
Verbosity parse_verbosity(const std::string& name);

class Log {
 public:
  explicit Log(Verbosity level = Verbosity::kInfo, std::ostream& out = std::cerr)
      : level_(level), out_(&out) {}

  void warning(const std::string& line) const { write("warning: ", line); }
  void info(const std::string& line) const {
    if (level_ >= Verbosity::kInfo) write("", line);
  }
  void debug(const std::string& line) const {
    if (level_ >= Verbosity::kDebug) write("", line);
  }
  bool debugging() const { return level_ >= Verbosity::kDebug; }

 private:
  void write(const char* prefix, const std::string& line) const {
    *out_ << "batfill: " << prefix << line << '\n';
  }

  Verbosity level_;
  std::ostream* out_;
};

}  // namespace batfill::adapter
