// The streaming SWF and DR_EVT CSV readers against the whole-file readers: the same jobs, in
// the same order, with the same renamed ids, invalid reasons, profiles and summary warnings, on
// the bundled traces and on hand-made edge cases (docs/semantics.md#streaming-replay).

#include <gtest/gtest.h>

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "batfill/workload/job_stream.hpp"
#include "batfill/workload/workload.hpp"
#include "scratch_files.hpp"

namespace batfill::workload {
namespace {

using testing::ScratchFiles;

// An 18-field SWF record; unnamed fields are -1 ("missing" in SWF).
std::string record(const std::string& id, const std::string& submit, const std::string& runtime,
                   const std::string& nodes = "1", const std::string& limit = "100") {
  return id + " " + submit + " -1 " + runtime + " " + nodes + " -1 -1 " + nodes + " " + limit +
         " -1 1 1 1 1 1 -1 -1 -1\n";
}

// Every job of `stream`, as the simulator takes them; each one's profile is the one its name
// gives.
std::vector<WorkloadJob> drain(JobStream& stream) {
  std::vector<WorkloadJob> jobs;
  while (const WorkloadJob* job = stream.next()) {
    const auto named = stream.workload().profiles.find(job->profile);
    const Profile* expected = named == stream.workload().profiles.end() ? nullptr : &named->second;
    EXPECT_EQ(stream.profile_of(*job), expected) << job->job.id;
    jobs.push_back(*job);
  }
  return jobs;
}

// A file read_workload refuses: opening its stream fails with the same error.
void expect_refused_as_whole(const std::string& path) {
  SCOPED_TRACE(path);
  ASSERT_NE(testing::error_reading(path), "");
  try {
    open_job_stream(path);
    ADD_FAILURE() << "accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), testing::error_reading(path));
  }
}

// The stream gives what read_workload gives, job by job and in the header.
void expect_same_as_whole(const std::string& path, const ReadOptions& options = {}) {
  const Workload whole = read_workload(path, options);
  const std::unique_ptr<JobStream> stream = open_job_stream(path, options);
  const Workload& header = stream->workload();
  EXPECT_EQ(stream->record_count(), whole.jobs.size());
  EXPECT_EQ(header.machine_count, whole.machine_count);
  EXPECT_EQ(header.warnings, whole.warnings);
  EXPECT_EQ(header.time_limits_from_runtime, whole.time_limits_from_runtime);
  EXPECT_EQ(header.jobs_overrunning_limit, whole.jobs_overrunning_limit);
  EXPECT_EQ(stream->has_user_ids(),
            std::any_of(whole.jobs.begin(), whole.jobs.end(),
                        [](const WorkloadJob& job) { return job.job.user >= 0; }));
  const std::vector<WorkloadJob> streamed = drain(*stream);
  ASSERT_EQ(streamed.size(), whole.jobs.size());
  for (std::size_t i = 0; i < streamed.size(); ++i) {
    const WorkloadJob& a = streamed[i];
    const WorkloadJob& b = whole.jobs[i];
    ASSERT_EQ(a.job.id, b.job.id) << "job " << i;
    EXPECT_EQ(a.job.submit_time, b.job.submit_time) << a.job.id;
    EXPECT_EQ(a.job.nodes, b.job.nodes) << a.job.id;
    EXPECT_EQ(a.job.time_limit, b.job.time_limit) << a.job.id;
    EXPECT_EQ(a.job.runtime, b.job.runtime) << a.job.id;
    EXPECT_EQ(a.job.user, b.job.user) << a.job.id;
    EXPECT_EQ(a.profile, b.profile) << a.job.id;
    EXPECT_EQ(a.rejection.text(), b.rejection.text()) << a.job.id;
    if (a.is_valid()) {
      ASSERT_EQ(header.profiles.count(a.profile), 1u) << a.job.id;
      EXPECT_EQ(header.profiles.at(a.profile).delay, whole.profiles.at(b.profile).delay);
    }
  }
}

TEST(JobStream, BundledSwfTracesStreamAsReadWhole) {
  for (const char* trace : {"tiny.swf", "lublin_256.swf", "KTH-SP2-1996-2.1-cln.swf.gz",
                            "CTC-SP2-1996-3.1-cln.swf.gz", "NASA-iPSC-1993-3.1-cln.swf.gz",
                            "SDSC-SP2-1998-4.2-cln.swf.gz", "SDSC-BLUE-2000-4.2-cln.swf.gz"}) {
    SCOPED_TRACE(trace);
    const std::string path = std::string(BATFILL_SOURCE_DIR "/workloads/") + trace;
    expect_same_as_whole(path);
    expect_same_as_whole(path, ReadOptions{true});
  }
}

TEST(JobStream, SortedSwfIsStreamedNotHeld) {
  ScratchFiles files;
  const std::string path =
      files.write("t.swf", "; MaxProcs: 4\n" + record("1", "0", "10") + record("2", "5", "10"));
  const std::unique_ptr<JobStream> stream = stream_swf(path, {});
  ASSERT_NE(stream, nullptr);
  EXPECT_TRUE(stream->workload().jobs.empty());
  EXPECT_EQ(drain(*stream).size(), 2u);
}

TEST(JobStream, UnsortedRecordsAreReadWholeAndSorted) {
  ScratchFiles files;
  const std::string path =
      files.write("t.swf", record("3", "20", "10") + record("1", "0", "10") +
                               record("10", "5", "10") + record("9", "5", "10"));
  EXPECT_EQ(stream_swf(path, {}), nullptr);
  expect_same_as_whole(path);
  const std::unique_ptr<JobStream> stream = open_job_stream(path);
  std::vector<std::string> ids;
  for (const WorkloadJob& job : drain(*stream)) ids.push_back(job.job.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"1", "9", "10", "3"}));
}

TEST(JobStream, RepeatedIdsAreRenamedNamingTheFirstUse) {
  ScratchFiles files;
  // The first invalid record is a repeat: the header's reason must name line 2.
  const std::string path = files.write(
      "t.swf", "; MaxProcs: 4\n" + record("7", "0", "10") + record("8", "1", "10") +
                   record("7", "2", "10") + record("7", "3", "-1") + record("017", "4", "10") +
                   record("017", "5", "10") + record("8", "6", "10"));
  ASSERT_NE(stream_swf(path, {}), nullptr);
  expect_same_as_whole(path);
  const std::unique_ptr<JobStream> stream = open_job_stream(path);
  const std::vector<WorkloadJob> jobs = drain(*stream);
  ASSERT_EQ(jobs.size(), 7u);
  EXPECT_EQ(jobs[2].job.id, "7#2");
  EXPECT_EQ(jobs[2].rejection.text(),
            path + ":4: duplicate job id '7' (first used at " + path + ":2), renamed '7#2'");
  EXPECT_EQ(jobs[3].job.id, "7#3");
  EXPECT_EQ(jobs[5].job.id, "017#2");
  EXPECT_EQ(jobs[6].job.id, "8#2");
  EXPECT_EQ(
      stream->workload().warnings.back(),
      "4 of 7 records are invalid and will be rejected (first: " + jobs[2].rejection.text() + ")");
}

// The second pass parses only the fields a job is made of where the first found the record
// valid: records invalid for any field, next to valid ones, keep their own reasons.
TEST(JobStream, InvalidRecordsAmongValidOnesKeepTheirReasons) {
  ScratchFiles files;
  std::string bad_unused_field = record("3", "2", "10");
  bad_unused_field.replace(bad_unused_field.find(" -1 "), 4, " x ");
  const std::string path = files.write(
      "t.swf", "; MaxProcs: 4\n" + record("1", "0", "10") + record("2", "1", "-1") +
                   bad_unused_field + record("4", "3", "10", "0") + record("5", "4", "10") +
                   "6 5 -1 10 1\n" + record("7", "6", "10.5", "2", "0") + record("8", "7", "7"));
  ASSERT_NE(stream_swf(path, {}), nullptr);
  expect_same_as_whole(path);
  const std::unique_ptr<JobStream> stream = open_job_stream(path);
  const std::vector<WorkloadJob> jobs = drain(*stream);
  ASSERT_EQ(jobs.size(), 8u);
  EXPECT_EQ(jobs[2].rejection.text(), path + ":4: field 3 'x' is not a number");
  EXPECT_EQ(jobs[6].job.runtime, from_fractional_seconds(10.5));
  EXPECT_TRUE(jobs[7].is_valid());
}

TEST(JobStream, CommentsBlankLinesAndCrlfInTheMiddle) {
  ScratchFiles files;
  const std::string path = files.write(
      "t.swf", "; Version: 2.2\r\n" + record("1", "0", "10") + "\n; MaxProcs: 8\r\n  \n" +
                   "; MaxNodes: x\n" + record("2", "1", "10") + "; a note\n" + "2 3 -1 5\n" +
                   record("4", "4", "10").substr(0, 40));  // no final newline
  ASSERT_NE(stream_swf(path, {}), nullptr);
  expect_same_as_whole(path);
  const std::unique_ptr<JobStream> stream = open_job_stream(path);
  EXPECT_EQ(stream->workload().machine_count, 8);
  EXPECT_EQ(stream->record_count(), 4u);
}

TEST(JobStream, GzipTracesStreamLikePlainOnes) {
  ScratchFiles files;
  const std::string text = "; MaxProcs: 4\n" + record("1", "0", "10") + record("2", "3", "1");
  const std::string path = files.write("t.swf.gz", "");
  gzFile out = gzopen(path.c_str(), "wb");
  gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
  gzclose(out);
  ASSERT_NE(stream_swf(path, {}), nullptr);
  expect_same_as_whole(path);
}

// Gzip members written one after the other: one gzip file.
std::string gzip_members(const ScratchFiles& files, const std::string& name,
                         const std::vector<std::string>& members, const std::string& trailer) {
  std::string bytes;
  for (const std::string& text : members) {
    const std::string part = files.write(name + ".part", "");
    gzFile out = gzopen(part.c_str(), "wb");
    gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
    gzclose(out);
    std::ifstream in(part, std::ios::binary);
    bytes += std::string(std::istreambuf_iterator<char>(in), {});
  }
  return files.write(name, bytes + trailer);
}

TEST(JobStream, GzipMembersAndTrailingBytesAsReadWorkloadTakesThem) {
  ScratchFiles files;
  const std::string two = gzip_members(
      files, "two.swf.gz", {"; MaxProcs: 4\n" + record("1", "0", "10"), record("2", "3", "1")}, "");
  ASSERT_NE(stream_swf(two, {}), nullptr);
  expect_same_as_whole(two);
  EXPECT_EQ(open_job_stream(two)->record_count(), 2u);
  // Bytes after the last member are corrupt data for read_workload: for the stream too.
  const std::string trailing =
      gzip_members(files, "trailing.swf.gz", {record("1", "0", "10")}, "garbage");
  const std::string truncated_source =
      gzip_members(files, "whole.swf.gz", {record("1", "0", "10") + record("2", "1", "10")}, "");
  std::ifstream in(truncated_source, std::ios::binary);
  const std::string bytes(std::istreambuf_iterator<char>(in), {});
  const std::string truncated = files.write("cut.swf.gz", bytes.substr(0, bytes.size() - 6));
  for (const std::string& path : {trailing, truncated}) expect_refused_as_whole(path);
}

// ---- DR_EVT CSV: streamed the same way when its rows are in submit order -----------------

TEST(JobStream, DrevtCsvStreamsAsReadWhole) {
  const std::string path = BATFILL_SOURCE_DIR "/workloads/drevt-huge_2000jobs.csv";
  const std::unique_ptr<JobStream> stream = stream_drevt_csv(path);
  ASSERT_NE(stream, nullptr);
  EXPECT_TRUE(stream->workload().jobs.empty());
  expect_same_as_whole(path);
}

TEST(JobStream, DrevtCsvBadRowsBlankLinesBomAndGzip) {
  ScratchFiles files;
  const std::string text =
      "\xEF\xBB\xBF"  // a byte order mark
      "actual_run_time,time_limit,queue,num_nodes,job_submit_time\r\n"
      "40,100,q,3,7\r\n"
      "\r\n"
      "150.5,100,q,1,abc\r\n"  // unreadable submit time: the previous row's, invalid
      "x,100,q,1,8\n"
      "20,100,q,0\n"
      "200,100,q,2,9";  // no final newline; runs past its limit
  const std::string plain = files.write("t.csv", text);
  ASSERT_NE(stream_drevt_csv(plain), nullptr);
  expect_same_as_whole(plain);
  const std::unique_ptr<JobStream> stream = open_job_stream(plain);
  EXPECT_EQ(stream->record_count(), 5u);
  EXPECT_EQ(stream->workload().jobs_overrunning_limit, 1);
  EXPECT_EQ(stream->workload().warnings.back(),
            "3 of 5 records are invalid and will be rejected (first: " + plain +
                ":4: job_submit_time 'abc' is not a number >= 0)");

  const std::string zipped = gzip_members(files, "t.csv.gz", {text}, "");
  ASSERT_NE(stream_drevt_csv(zipped), nullptr);
  expect_same_as_whole(zipped);
}

TEST(JobStream, DrevtCsvOutOfOrderOrBrokenIsReadWhole) {
  ScratchFiles files;
  const std::string unsorted = files.write(
      "u.csv", "job_submit_time,num_nodes,queue,time_limit\n9,1,q,10\n5,1,q,10\n5,2,q,10\n");
  EXPECT_EQ(stream_drevt_csv(unsorted), nullptr);
  expect_same_as_whole(unsorted);
  std::vector<std::string> ids;
  for (const WorkloadJob& job : drain(*open_job_stream(unsorted))) ids.push_back(job.job.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"2", "3", "1"}));

  for (const std::string& path :
       {files.write("empty.csv", ""), files.write("h.csv", "job_submit_time,queue\n1,q\n")}) {
    EXPECT_EQ(stream_drevt_csv(path), nullptr) << path;
    expect_refused_as_whole(path);
  }
}

TEST(JobStream, OtherFormatsAreReadWhole) {
  const std::string path = BATFILL_SOURCE_DIR "/workloads/tiny_batsim.json";
  const std::unique_ptr<JobStream> stream = open_job_stream(path);
  const Workload whole = read_workload(path);
  const std::vector<WorkloadJob> jobs = drain(*stream);
  ASSERT_EQ(jobs.size(), whole.jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    EXPECT_EQ(jobs[i].job.id, whole.jobs[i].job.id);
    EXPECT_EQ(jobs[i].extra_json, whole.jobs[i].extra_json);
  }
}

TEST(JobStream, UnreadableFilesFailAsReadWorkloadFails) {
  ScratchFiles files;
  const std::string missing = files.write("x", "") + "-missing.swf";
  EXPECT_THROW(open_job_stream(missing), std::runtime_error);
  const std::string corrupt = files.write("c.swf.gz", std::string("\x1f\x8b\x08\x00garbage", 11));
  try {
    open_job_stream(corrupt);
    ADD_FAILURE() << "corrupt gzip accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), testing::error_reading(corrupt));
  }
}

}  // namespace
}  // namespace batfill::workload
