// read_workload: opening, gunzipping and choosing a reader.

#include <gtest/gtest.h>

#include <boost/iostreams/copy.hpp>
#include <boost/iostreams/device/back_inserter.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <sstream>

#include "batfill/workload/workload.hpp"
#include "scratch_files.hpp"

namespace batfill::workload {
namespace {

using testing::error_reading;
using testing::ScratchFiles;

const std::string kSwf =
    "; MaxProcs: 16\n"
    "1 0 -1 60 4 -1 -1 4 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
    "2 9 -1 30 2 -1 -1 2 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n";

std::string gzipped(const std::string& text) {
  namespace io = boost::iostreams;
  std::string compressed;
  io::filtering_ostream out;
  out.push(io::gzip_compressor());
  out.push(io::back_inserter(compressed));
  out << text;
  out.reset();  // flushes the gzip trailer
  return compressed;
}

void expect_same_jobs(const Workload& a, const Workload& b) {
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].job.id, b.jobs[i].job.id);
    EXPECT_EQ(a.jobs[i].job.submit_time, b.jobs[i].job.submit_time);
    EXPECT_EQ(a.jobs[i].job.nodes, b.jobs[i].job.nodes);
    EXPECT_EQ(a.jobs[i].job.time_limit, b.jobs[i].job.time_limit);
    EXPECT_EQ(a.jobs[i].profile, b.jobs[i].profile);
  }
  EXPECT_EQ(a.machine_count, b.machine_count);
  EXPECT_EQ(a.time_limits_from_runtime, b.time_limits_from_runtime);
}

TEST(ReadWorkload, GzipIsRecognisedByItsMagicBytesNotItsName) {
  ScratchFiles files;
  const Workload plain = read_workload(files.write("t.swf", kSwf));
  ASSERT_EQ(plain.jobs.size(), 2u);
  EXPECT_EQ(plain.time_limits_from_runtime, 1);
  expect_same_jobs(plain, read_workload(files.write("t.swf.gz", gzipped(kSwf))));
  // A compressed trace without .gz, and one with no known extension at all (content sniffed).
  expect_same_jobs(plain, read_workload(files.write("renamed.swf", gzipped(kSwf))));
  expect_same_jobs(plain, read_workload(files.write("trace.log", gzipped(kSwf))));
}

TEST(ReadWorkload, ConcatenatedGzipMembersReadAsOneText) {
  ScratchFiles files;
  const std::string first = "; MaxProcs: 16\n1 0 -1 60 4 -1 -1 4 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
  const std::string second = "2 9 -1 30 2 -1 -1 2 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
  expect_same_jobs(read_workload(files.write("t.swf", kSwf)),
                   read_workload(files.write("two.swf.gz", gzipped(first) + gzipped(second))));
}

TEST(ReadWorkload, CorruptGzipKeepsItsMessage) {
  ScratchFiles files;
  const std::string trailing = files.write("trailing.swf.gz", gzipped(kSwf) + "garbage");
  EXPECT_EQ(error_reading(trailing),
            "cannot decompress workload '" + trailing + "': gzip error: iostream error");
  std::string bad_crc = gzipped(kSwf);
  bad_crc[bad_crc.size() - 8] ^= 1;
  const std::string crc = files.write("crc.swf.gz", bad_crc);
  EXPECT_EQ(error_reading(crc),
            "cannot decompress workload '" + crc + "': gzip error: iostream error");
}

TEST(ReadWorkload, UnknownExtensionsAreSniffed) {
  ScratchFiles files;
  EXPECT_EQ(
      read_workload(files.write("w", R"({"nb_res": 3, "jobs": [], "profiles": {}})")).machine_count,
      3);
  EXPECT_EQ(read_workload(files.write("t.txt",
                                      "job_submit_time,num_nodes,queue,time_limit\n"
                                      "0,1,q,10\n"))
                .jobs.size(),
            1u);
}

TEST(ReadWorkload, UnreadableOrUnknownFilesThrowNamingThePath) {
  ScratchFiles files;
  const std::string missing = files.write("dir-marker", "") + "-missing.swf";
  EXPECT_EQ(error_reading(missing).rfind("cannot open workload '" + missing + "'", 0), 0u);

  const std::string unknown = files.write("notes.txt", "hello, world\n");
  EXPECT_EQ(error_reading(unknown).rfind("unknown workload format for '" + unknown + "'", 0), 0u);

  std::string truncated = gzipped(kSwf);
  truncated.resize(truncated.size() / 2);
  const std::string broken = files.write("broken.swf.gz", truncated);
  EXPECT_EQ(error_reading(broken).rfind("cannot decompress workload '" + broken + "'", 0), 0u)
      << error_reading(broken);
}

}  // namespace
}  // namespace batfill::workload
