#pragma once
// Pieces shared by the format readers: text scanning, number parsing, id bookkeeping and the
// final ordering of a workload. Private to src/workload.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "batfill/common/id_set.hpp"
#include "batfill/workload/workload.hpp"

namespace batfill::workload::detail {

// The limits of a resize request (docs/semantics.md#resize-requests-of-running-jobs), said alike by
// a workload's `resize` field and a --resize file.
constexpr const char* kResizeAfterLimit =
    "a number of seconds from 0 to 4.25e31 (batfill's time range)";
constexpr const char* kResizeNodesLimit = "an integer from 1 to 1000000 (batfill's machine limit)";

// Walks a text line by line (LF or CRLF), counting lines from 1.
class LineScanner {
 public:
  explicit LineScanner(std::string_view text) : rest_(text) {}
  // False at the end of the text.
  bool next(std::string_view& line);
  int line_number() const { return line_number_; }

 private:
  std::string_view rest_;
  int line_number_ = 0;
  bool done_ = false;
};

std::string_view trim(std::string_view text);

// A finite decimal number (no locale, no hex); nullopt for anything else.
std::optional<double> parse_number(std::string_view text);

// The number as an int when it is a whole number within int's range.
std::optional<int> whole_int(double value);

// Time from seconds as written in a trace; nullopt when out of range.
std::optional<Time> seconds_to_time(double seconds);

// "3600" for whole seconds, else the shortest exact decimal form ("12.5"). Batsim's SWF
// converter names delay profiles by their integer delay; decimals keep fractional runtimes
// from sharing a profile with a different value.
std::string delay_profile_name(Time delay);

// The delay profiles of a trace format (SWF, DR_EVT): one per distinct runtime, shared by all
// jobs with that runtime. Remembers names by value so that large traces skip the formatting.
class DelayProfiles {
 public:
  explicit DelayProfiles(std::map<std::string, Profile>& profiles) : profiles_(profiles) {}
  // The delay profile of `delay` (its name: .name), added to the map on first use.
  const Profile& use(Time delay);

 private:
  // A new delay profile, kept by the profile map (whose nodes never move).
  const Profile& add(Time delay);

  std::map<std::string, Profile>& profiles_;
  // Trace runtimes are whole seconds of at most days: those index a table directly, with no
  // hash per job; any other delay goes through the map.
  std::vector<const Profile*> by_whole_second_;
  std::unordered_map<Time, const Profile*, TimeHash> other_profiles_;
};

// A streamed workload's header and the delay profiles in it, at fixed addresses: the pass that
// hands out the jobs goes on with the first pass's profiles (and their index by runtime) rather
// than building them again.
struct StreamHeader {
  StreamHeader()
      : workload(std::make_unique<Workload>()),
        profiles(std::make_unique<DelayProfiles>(workload->profiles)) {}
  std::unique_ptr<Workload> workload;
  std::unique_ptr<DelayProfiles> profiles;
};

// Keeps job ids unique: a repeated id is renamed "<id>#2", "<id>#3"... and reported.
// Records are identified by a position (line number, array index) that `describe` turns into
// text only when a duplicate is found, so large traces do not pay for it.
class IdRegistry {
 public:
  struct Claim {
    std::string id;         // the id to use
    std::string duplicate;  // non-empty: why the job is invalid (names the first position)
  };
  // With `tracked`, only those ids can repeat (a first pass found them, RepeatedIds) and only
  // they are remembered; every other id is taken as it is. Renamed ids ("17#2") are then
  // checked against the tracked ids and earlier renames only, which is exact for formats whose
  // ids never contain '#' (SWF).
  explicit IdRegistry(std::function<std::string(long)> describe,
                      const std::unordered_set<std::string>* tracked = nullptr)
      : describe_(std::move(describe)), tracked_(tracked) {}
  // `ids`: how many records are expected (also bounds the small numbers tracked in a table).
  void reserve(std::size_t ids);
  Claim claim(const std::string& id, long position);

 private:
  struct Seen {
    long first_position = 0;
    int uses = 0;
  };
  static constexpr long kUnused = -1;
  // Most traces number their jobs 1, 2, 3...: ids written as small plain numbers ("17", not
  // "017" or "17.0") are kept in a table indexed by the number, which spares hashing a string
  // per job. Such an id equals no other spelling, so the two stores never hold the same id.
  std::optional<std::size_t> table_index(const std::string& id) const;
  // Records the first use of a table id; false when it was used before.
  bool claim_in_table(std::size_t index, const std::string& id, long position);

  std::function<std::string(long)> describe_;
  const std::unordered_set<std::string>* tracked_;
  std::size_t table_limit_ = 1 << 16;
  std::vector<long> first_position_;            // by table index; kUnused if not seen
  std::unordered_map<std::string, Seen> seen_;  // every other id, and repeated table ids
};

// The first pass of a streamed trace: renames repeated ids exactly as IdRegistry does, but
// remembers ids in a compact IdSet and not where each was first used, so its duplicate reasons
// lack the position ("first used at ?"). repeated() lists the ids seen more than once.
class RepeatedIds {
 public:
  IdRegistry::Claim claim(const std::string& id);
  const std::unordered_set<std::string>& repeated() const { return repeated_; }

 private:
  IdSet seen_;
  std::unordered_map<std::string, int> uses_;  // repeated ids only
  std::unordered_set<std::string> repeated_;
};

// Batsim's submission order: by submit time, same-instant jobs by id
// (docs/semantics.md#order-of-same-instant-submissions).
bool submitted_before(const Job& a, const Job& b);

// Sorts the jobs into Batsim's submission order. Stable, so records that tie keep their file
// order.
void sort_by_submission(Workload& workload);

// sort_by_submission, then adds the summary warnings (overrunning
// jobs, invalid records). A reader that already counted the overrunning jobs passes the count,
// which spares looking up every job's profile by name.
void finish_workload(Workload& workload, std::optional<int> jobs_overrunning_limit = std::nullopt);

// The warnings finish_workload adds, from counts: jobs cut at their limit, invalid records
// (with the first one's reason in submit order).
void add_count_warnings(Workload& workload, std::size_t records, std::size_t invalid,
                        const std::string& first_invalid_reason);

// Marks a job invalid at LOCATION because of `why`; further problems of the same record are
// appended ("why; why2") so one rejection lists everything wrong with it.
void mark_invalid(WorkloadJob& job, const std::string& location, const std::string& why);

}  // namespace batfill::workload::detail
