#pragma once
// One SWF line at a time (docs/semantics.md#swf, docs/semantics.md#invalid-records): header
// comments set the machine size, records become jobs. Shared by the whole-file reader and the
// streaming one (swf_stream), so both give the same jobs and the same reasons. Private to
// src/workload.

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "batfill/workload/workload.hpp"
#include "reader_support.hpp"

namespace batfill::workload::detail {

constexpr std::size_t kSwfFieldCount = 18;

struct MachineHeader {
  std::optional<int> max_procs;
  std::optional<int> max_nodes;
};

// The fields of one record: the first kSwfFieldCount kept in place (a fixed array, so no
// per-line allocation), the rest only counted for the "has N fields" message.
struct RecordFields {
  std::array<std::string_view, kSwfFieldCount> text;
  std::size_t count = 0;
};

class SwfRecordParser {
 public:
  // How a record's id is made unique: an IdRegistry, or a pass that only finds repeats.
  using ClaimId = std::function<IdRegistry::Claim(const std::string& id, long line)>;

  // Header warnings, delay profiles and the count of limits taken from runtimes go to
  // `workload`; with `shared`, profiles come from it instead (the streaming reader's two passes
  // share theirs); the jobs go where each call says.
  SwfRecordParser(const std::string& path, const ReadOptions& options, Workload& workload,
                  ClaimId claim_id, DelayProfiles* shared = nullptr);

  // Reads line `line_number`: true when it is a record, now in `job`; false for blank lines
  // and header comments. `known_valid`: an earlier pass found the record valid, so only the
  // fields a job is made of are parsed (the others were numbers then); the job is the same.
  bool read_line(std::string_view line, long line_number, WorkloadJob& job,
                 bool known_valid = false);
  // Sets the workload's machine size from the header comments read.
  void finish_header();
  int jobs_overrunning_limit() const { return jobs_overrunning_limit_; }
  // The profile of the record read last, null if it has none (an invalid runtime).
  const Profile* profile() const { return profile_; }
  // "path:line", built only for records that need it: most of a large trace is valid.
  std::string location(long line) const;

 private:
  void invalid(WorkloadJob& job, const std::string& why) const;
  void read_record(std::string_view content, WorkloadJob& job, bool known_valid);
  // Parses every field; the text names the first problem of the record's structure, if any.
  std::string read_all_numbers();
  // Parses the fields a job is made of; false if one is not a number.
  bool read_used_numbers();
  void read_fields(WorkloadJob& job);

  std::string path_;
  ReadOptions options_;
  Workload& workload_;
  DelayProfiles own_profiles_;
  DelayProfiles& delay_profiles_;
  ClaimId claim_id_;
  MachineHeader header_;
  const Profile* profile_ = nullptr;
  long line_number_ = 0;
  Time previous_submit_ = 0;
  int jobs_overrunning_limit_ = 0;
  RecordFields fields_;
  // By SWF field number (index 0 unused); number_ holds a value where is_number_ is set.
  std::array<bool, kSwfFieldCount + 1> is_number_{};
  std::array<double, kSwfFieldCount + 1> number_{};
};

}  // namespace batfill::workload::detail
