// Hostile or absurd workload files: each must end in a clear error or an invalid record naming
// the file and position, never a crash, a hang or a wrapped value (docs/semantics.md#input-limits).

#include <gtest/gtest.h>
#include <zlib.h>

#include <chrono>

#include "batfill/common/json_depth.hpp"
#include "batfill/common/machine_set.hpp"
#include "batfill/workload/workload.hpp"
#include "scratch_files.hpp"

namespace batfill::workload {
namespace {

using testing::error_reading;
using testing::ScratchFiles;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A valid gzip of `text` (zlib's own gzip wrapper).
std::string gzipped(const std::string& text) {
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&stream, text.size()) + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

TEST(HostileInput, GzipTrailerClaimingFourGibIsNotTrusted) {
  ScratchFiles files;
  std::string bytes = gzipped("1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n");
  // ISIZE (the last 4 bytes) says 4 GiB - 1; the data holds 46 bytes. Reading used to allocate
  // the claimed size up front.
  for (std::size_t i = bytes.size() - 4; i < bytes.size(); ++i) bytes[i] = '\xff';
  const auto start = std::chrono::steady_clock::now();
  const std::string error = error_reading(files.write("lying.swf.gz", bytes));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_TRUE(contains(error, "cannot decompress workload")) << error;
  EXPECT_TRUE(contains(error, "lying.swf.gz")) << error;
}

std::string nested_arrays(int levels) {
  return std::string(static_cast<std::size_t>(levels), '[') +
         std::string(static_cast<std::size_t>(levels), ']');
}

TEST(HostileInput, JsonWorkloadNested75000LevelsIsAClearError) {
  ScratchFiles files;
  const std::string text =
      "{\"nb_res\": 4, \"profiles\": {},\n\"jobs\": [{\"id\": 1, \"x\": " + nested_arrays(75000) +
      "}]}";
  const std::string error = error_reading(files.write("deep.json", text));
  // The first '[' of the user field is at offset 47; the 257th opens at 47 + 256 (jobs[] and
  // the job object are two levels, the root a third).
  EXPECT_TRUE(contains(error, "deep.json:2: JSON nested deeper than 256 levels at offset"))
      << error;
}

TEST(HostileInput, JsonNestingAtTheLimitIsRead) {
  ScratchFiles files;
  // Root object, jobs array, job object: 3 levels, so the user field may nest 253 more.
  const std::string text = R"({"nb_res": 4, "profiles": {"d": {"type": "delay", "delay": 1}},
    "jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "d", "x": )" +
                           nested_arrays(kMaxJsonDepth - 3) + "}]}";
  const Workload workload = read_workload(files.write("limit.json", text));
  ASSERT_EQ(workload.jobs.size(), 1u);
  EXPECT_TRUE(workload.jobs[0].is_valid()) << workload.jobs[0].rejection.text();
  EXPECT_EQ(workload.jobs[0].extra_json, "{\"x\":" + nested_arrays(kMaxJsonDepth - 3) + "}");
}

TEST(HostileInput, InvalidUtf8InAJsonWorkloadIsASyntaxError) {
  ScratchFiles files;
  const std::string text = "{\"nb_res\": 4, \"profiles\": {}, \"jobs\": [{\"id\": \"a\xff\"}]}";
  const std::string error = error_reading(files.write("bad.json", text));
  EXPECT_TRUE(contains(error, "bad.json:1: JSON syntax error")) << error;
  EXPECT_TRUE(contains(error, "Invalid encoding")) << error;
}

TEST(HostileInput, SwfMaxProcsBeyondTheMachineLimitIsAnError) {
  ScratchFiles files;
  const std::string error = error_reading(files.write(
      "big.swf", "; MaxProcs: 2147483647\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"));
  EXPECT_TRUE(contains(error,
                       "big.swf:1: header MaxProcs 2147483647 is more than batfill's "
                       "limit of 1000000 machines"))
      << error;
}

TEST(HostileInput, JsonNbResBeyondTheMachineLimitIsAnError) {
  ScratchFiles files;
  const std::string error = error_reading(
      files.write("big.json", R"({"nb_res": 2147483647, "profiles": {}, "jobs": []})"));
  EXPECT_TRUE(contains(error,
                       "big.json: 'nb_res' 2147483647 is more than batfill's limit of "
                       "1000000 machines"))
      << error;
}

// Times beyond ±kMaxTime (4.25e31 s; 5e31 s here) make the record invalid, naming the field,
// rather than a sum that overflows in the simulator.
TEST(HostileInput, SwfTimesBeyondTheTimeRangeMakeTheRecordInvalid) {
  ScratchFiles files;
  const Workload workload = read_workload(
      files.write("far.swf",
                  "1 50000000000000000000000000000000 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"
                  "2 0 0 50000000000000000000000000000000 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"));
  ASSERT_EQ(workload.jobs.size(), 2u);
  for (const WorkloadJob& job : workload.jobs) EXPECT_FALSE(job.is_valid()) << job.job.id;
  const std::string far = workload.jobs[1].job.id == "1" ? workload.jobs[1].rejection.text()
                                                         : workload.jobs[0].rejection.text();
  EXPECT_TRUE(contains(far,
                       "far.swf:1: submit time (field 2) '50000000000000000000000000000000' is "
                       "negative or out of range"))
      << far;
}

TEST(HostileInput, CsvAndJsonTimesBeyondTheTimeRangeMakeTheRecordInvalid) {
  ScratchFiles files;
  const Workload csv = read_workload(files.write(
      "far.csv",
      "job_submit_time,num_nodes,queue,time_limit\n50000000000000000000000000000000,1,q,10\n"));
  ASSERT_EQ(csv.jobs.size(), 1u);
  EXPECT_TRUE(contains(csv.jobs[0].rejection.text(),
                       "job_submit_time '50000000000000000000000000000000' is not a number >= 0"))
      << csv.jobs[0].rejection.text();
  const Workload json = read_workload(
      files.write("far.json", R"({"nb_res": 1, "profiles": {"d": {"type": "delay", "delay": 10}},
      "jobs": [{"id": 1, "subtime": 5e31, "res": 1, "profile": "d", "walltime": 10}]})"));
  ASSERT_EQ(json.jobs.size(), 1u);
  EXPECT_TRUE(contains(json.jobs[0].rejection.text(), "'subtime' must be a number >= 0"))
      << json.jobs[0].rejection.text();
}

}  // namespace
}  // namespace batfill::workload
