// SWF replay conventions of docs/semantics.md#swf on tiny traces.

#include <gtest/gtest.h>

#include "batfill/workload/workload.hpp"
#include "scratch_files.hpp"

namespace batfill::workload {
namespace {

using testing::ScratchFiles;

// An 18-field SWF record; unnamed fields are -1 ("missing" in SWF).
std::string record(const std::string& id, const std::string& submit, const std::string& runtime,
                   const std::string& allocated, const std::string& requested,
                   const std::string& requested_time) {
  return id + " " + submit + " -1 " + runtime + " " + allocated + " -1 -1 " + requested + " " +
         requested_time + " -1 1 -1 -1 -1 -1 -1 -1 -1\n";
}

const WorkloadJob& job_named(const Workload& workload, const std::string& id) {
  for (const WorkloadJob& job : workload.jobs) {
    if (job.job.id == id) return job;
  }
  throw std::runtime_error("no job " + id);
}

TEST(SwfReader, ReadsTheShippedTinyTrace) {
  // Expectations are the comments of workloads/tiny.swf, one per job.
  const Workload workload = read_workload(BATFILL_SOURCE_DIR "/workloads/tiny.swf");
  ASSERT_EQ(workload.jobs.size(), 6u);
  EXPECT_EQ(workload.machine_count, 8);

  const WorkloadJob& usual = job_named(workload, "1");
  EXPECT_TRUE(usual.is_valid());
  EXPECT_EQ(usual.job.submit_time, 0);
  EXPECT_EQ(usual.job.nodes, 4);
  EXPECT_EQ(usual.job.time_limit, from_seconds(100));
  EXPECT_EQ(usual.profile, "60");
  EXPECT_EQ(workload.profiles.at("60").type, Profile::Type::kDelay);
  EXPECT_EQ(workload.profiles.at("60").delay, from_seconds(60));

  EXPECT_EQ(job_named(workload, "2").job.nodes, 2);  // field 5, as field 8 is -1

  const WorkloadJob& unestimated = job_named(workload, "3");
  EXPECT_TRUE(unestimated.is_valid());
  EXPECT_EQ(unestimated.job.time_limit, from_seconds(20));
  EXPECT_EQ(workload.time_limits_from_runtime, 1);

  const WorkloadJob& overrun = job_named(workload, "4");
  EXPECT_TRUE(overrun.is_valid());
  EXPECT_EQ(overrun.job.time_limit, from_seconds(100));
  EXPECT_EQ(workload.profiles.at(overrun.profile).delay, from_seconds(150));
  EXPECT_EQ(workload.jobs_overrunning_limit, 1);

  const WorkloadJob& cancelled = job_named(workload, "5");
  EXPECT_FALSE(cancelled.is_valid());
  EXPECT_EQ(cancelled.rejection.text().rfind(BATFILL_SOURCE_DIR "/workloads/tiny.swf:15: ", 0), 0u)
      << cancelled.rejection.text();
  EXPECT_NE(cancelled.rejection.text().find("runtime (field 4) is -1"), std::string::npos);

  const WorkloadJob& instant = job_named(workload, "6");
  EXPECT_TRUE(instant.is_valid());
  EXPECT_EQ(workload.profiles.at(instant.profile).delay, 0);

  ASSERT_EQ(workload.warnings.size(), 2u);
  EXPECT_EQ(workload.warnings[0].rfind("1 job would run past the time limit", 0), 0u)
      << workload.warnings[0];
  EXPECT_EQ(workload.warnings[1].rfind("1 of 6 records are invalid", 0), 0u);
}

TEST(SwfReader, MalformedLinesBecomeInvalidJobsNamingFileAndLine) {
  ScratchFiles files;
  const std::string path =
      files.write("bad.swf", "; MaxNodes: 4\n" + record("1", "300", "10", "1", "1", "20") +
                                 "this is not a record\n"
                                 "7 400 -1 50\n" +
                                 record("8", "500", "10", "1", "1", "2O"));
  const Workload workload = read_workload(path);
  ASSERT_EQ(workload.jobs.size(), 4u);

  // No parsable id: named after its line; no parsable submit time: the previous record's.
  const WorkloadJob& text = job_named(workload, "line3");
  EXPECT_EQ(text.job.submit_time, from_seconds(300));
  EXPECT_EQ(text.rejection.text().rfind(path + ":3: ", 0), 0u) << text.rejection.text();

  const WorkloadJob& short_line = job_named(workload, "7");
  EXPECT_EQ(short_line.job.submit_time, from_seconds(400));
  EXPECT_EQ(short_line.rejection.text(), path + ":4: has 4 fields, SWF records have 18");
  EXPECT_EQ(short_line.rejection.position(), path + ":4");
  EXPECT_EQ(short_line.rejection.why(), "has 4 fields, SWF records have 18");

  const WorkloadJob& letter_o = job_named(workload, "8");
  EXPECT_EQ(letter_o.rejection.text(), path + ":5: field 9 '2O' is not a number");
  EXPECT_TRUE(job_named(workload, "1").is_valid());
}

TEST(SwfReader, RejectsNonPositiveNodesAndNegativeRuntime) {
  ScratchFiles files;
  const std::string path = files.write("t.swf", record("1", "0", "-1", "4", "4", "100") +
                                                    record("2", "0", "10", "0", "0", "100") +
                                                    record("3", "0", "10", "-1", "-1", "100") +
                                                    record("4", "0", "10", "2", "2.5", "100"));
  const Workload workload = read_workload(path);
  for (const WorkloadJob& job : workload.jobs) EXPECT_FALSE(job.is_valid()) << job.job.id;
  EXPECT_NE(job_named(workload, "2").rejection.text().find("node count (field 8) is 0"),
            std::string::npos);
  EXPECT_NE(job_named(workload, "3").rejection.text().find("field 8 is missing"),
            std::string::npos);
  EXPECT_EQ(workload.time_limits_from_runtime, 0);
}

// Field 12 is the user (docs/semantics.md#predictions-correctors-and-backfill-order); -1 stays
// unknown. Field 4 is the runtime the clairvoyant predictor reads: 10 s.
TEST(SwfReader, UserIdAndRuntime) {
  ScratchFiles files;
  const std::string path =
      files.write("t.swf", "1 0 -1 10 1 -1 -1 1 60 -1 1 7 -1 -1 -1 -1 -1 -1\n" +
                               record("2", "0", "10", "1", "1", "60"));
  const Workload workload = read_workload(path);
  EXPECT_EQ(job_named(workload, "1").job.user, 7);
  EXPECT_EQ(job_named(workload, "1").job.runtime, from_seconds(10));
  EXPECT_EQ(job_named(workload, "2").job.user, -1);
}

TEST(SwfReader, MissingRequestedTimeCanBeRejectedInstead) {
  ScratchFiles files;
  const std::string path = files.write(
      "t.swf", record("1", "0", "10", "1", "1", "-1") + record("2", "0", "10", "1", "1", "0"));
  const Workload lenient = read_workload(path);
  EXPECT_EQ(lenient.time_limits_from_runtime, 2);
  EXPECT_EQ(lenient.invalid_count(), 0u);

  ReadOptions strict;
  strict.reject_missing_time_limit = true;
  const Workload rejected = read_workload(path, strict);
  EXPECT_EQ(rejected.time_limits_from_runtime, 0);
  ASSERT_EQ(rejected.invalid_count(), 2u);
  EXPECT_NE(rejected.jobs[0].rejection.text().find("no requested time (field 9 is -1)"),
            std::string::npos);
}

TEST(SwfReader, FractionalFieldsKeepMicrosecondsAndDistinctProfiles) {
  ScratchFiles files;
  const std::string path = files.write(
      "t.swf", record("1", "0.25", "1.5", "1", "1", "2.75") + record("2", "1", "1", "1", "1", "3"));
  const Workload workload = read_workload(path);
  const WorkloadJob& fractional = job_named(workload, "1");
  EXPECT_EQ(fractional.job.submit_time, 250'000);
  EXPECT_EQ(fractional.job.time_limit, 2'750'000);
  EXPECT_EQ(fractional.profile, "1.5");
  EXPECT_EQ(workload.profiles.at("1.5").delay, 1'500'000);
  EXPECT_EQ(job_named(workload, "2").profile, "1");
}

// Integer fields take a faster path than other numbers; every spelling of a value must still
// read the same, integers past 2^53 read as the nearest double (docs/semantics.md#time), and
// huge integers must still be out of range.
TEST(SwfReader, NumberSpellingsReadAlike) {
  ScratchFiles files;
  const std::string path = files.write(
      "t.swf", record("1", "-0", "1e2", "4", "-1", "100.0") +
                   record("2", "0", "0100", "4.0", "-1", "1e+2") +
                   record("3", "0", "10", "4", "4", "9007199254740993") +
                   record("4", "0", "10", "4", "99999999999999999999", "100") +
                   record("5", "0", "10", "4", "4", "100000000000000000000000000000000"));
  const Workload workload = read_workload(path);
  for (const char* id : {"1", "2"}) {
    const WorkloadJob& job = job_named(workload, id);
    EXPECT_TRUE(job.is_valid()) << id << ": " << job.rejection.text();
    EXPECT_EQ(job.job.submit_time, 0) << id;
    EXPECT_EQ(job.profile, "100") << id;
    EXPECT_EQ(job.job.nodes, 4) << id;
    EXPECT_EQ(job.job.time_limit, from_seconds(100)) << id;
  }
  // 2^53 + 1 s lies between the doubles 2^53 and 2^53 + 2; the tie goes to the even 2^53.
  EXPECT_TRUE(job_named(workload, "3").is_valid()) << job_named(workload, "3").rejection.text();
  EXPECT_EQ(job_named(workload, "3").job.time_limit, from_seconds(9007199254740992));
  // 10^32 s is beyond kMaxTime, 2^125 - 1 µs (4.25e31 s).
  EXPECT_NE(job_named(workload, "5").rejection.text().find("requested time (field 9)"),
            std::string::npos);
  EXPECT_NE(job_named(workload, "4").rejection.text().find("node count (field 8)"),
            std::string::npos);
}

TEST(SwfReader, MaxProcsWinsOverMaxNodes) {
  // SDSC-BLUE's header has MaxNodes 144 and MaxProcs 1152; docs/semantics.md#machine-size prefers
  // MaxProcs.
  ScratchFiles files;
  EXPECT_EQ(
      read_workload(files.write("a.swf", "; MaxNodes: 144\n; MaxProcs: 1152\n")).machine_count,
      1152);
  EXPECT_EQ(
      read_workload(files.write("b.swf", "; MaxNodes: 338 (batch partition)\n")).machine_count,
      338);
  EXPECT_FALSE(read_workload(files.write("c.swf", record("1", "0", "1", "1", "1", "1")))
                   .machine_count.has_value());
}

TEST(SwfReader, RenamesAndRejectsARepeatedId) {
  ScratchFiles files;
  const std::string path = files.write(
      "t.swf", record("1", "0", "10", "1", "1", "20") + record("1", "5", "10", "1", "1", "20"));
  const Workload workload = read_workload(path);
  ASSERT_EQ(workload.jobs.size(), 2u);
  EXPECT_TRUE(job_named(workload, "1").is_valid());
  const WorkloadJob& repeated = job_named(workload, "1#2");
  EXPECT_EQ(repeated.rejection.text(),
            path + ":2: duplicate job id '1' (first used at " + path + ":1), renamed '1#2'");
}

TEST(SwfReader, IdsAreComparedAsWrittenWhateverTheirSize) {
  // Small plain numbers and other spellings are kept apart internally; the rules are the same.
  ScratchFiles files;
  const std::string path = files.write(
      "t.swf", record("7", "0", "10", "1", "1", "20") + record("007", "0", "10", "1", "1", "20") +
                   record("7", "1", "10", "1", "1", "20") + record("7", "2", "10", "1", "1", "20") +
                   record("123456789012", "3", "10", "1", "1", "20") +
                   record("123456789012", "4", "10", "1", "1", "20") +
                   record("7.5", "5", "10", "1", "1", "20") +
                   record("7.5", "6", "10", "1", "1", "20"));
  const Workload workload = read_workload(path);
  ASSERT_EQ(workload.jobs.size(), 8u);
  EXPECT_TRUE(job_named(workload, "7").is_valid());
  EXPECT_TRUE(job_named(workload, "007").is_valid());
  EXPECT_EQ(job_named(workload, "7#2").rejection.text(),
            path + ":3: duplicate job id '7' (first used at " + path + ":1), renamed '7#2'");
  EXPECT_EQ(job_named(workload, "7#3").rejection.text(),
            path + ":4: duplicate job id '7' (first used at " + path + ":1), renamed '7#3'");
  EXPECT_TRUE(job_named(workload, "123456789012").is_valid());
  EXPECT_EQ(job_named(workload, "123456789012#2").rejection.text(),
            path + ":6: duplicate job id '123456789012' (first used at " + path +
                ":5), renamed '123456789012#2'");
  EXPECT_TRUE(job_named(workload, "7.5").is_valid());
  EXPECT_FALSE(job_named(workload, "7.5#2").is_valid());
}

TEST(SwfReader, JobsWithTheSameRuntimeShareOneProfile) {
  // Short whole-second, long and fractional runtimes take different paths to their profile.
  ScratchFiles files;
  const Workload workload = read_workload(files.write(
      "t.swf", record("1", "0", "10", "1", "1", "20") + record("2", "0", "10", "1", "1", "20") +
                   record("3", "0", "2000000", "1", "1", "20") +
                   record("4", "0", "2000000", "1", "1", "20") +
                   record("5", "0", "2.5", "1", "1", "20") +
                   record("6", "0", "2.5", "1", "1", "20")));
  ASSERT_EQ(workload.jobs.size(), 6u);
  EXPECT_EQ(workload.profiles.size(), 3u);
  EXPECT_EQ(job_named(workload, "2").profile, "10");
  EXPECT_EQ(job_named(workload, "4").profile, "2000000");
  EXPECT_EQ(workload.profiles.at("2000000").delay, from_seconds(2000000));
  EXPECT_EQ(job_named(workload, "6").profile, "2.5");
  EXPECT_EQ(workload.profiles.at("2.5").delay, from_seconds(2) + 500000);
}

TEST(SwfReader, SortsBySubmitTimeThenNumericId) {
  // Batsim submits in subtime order; same-instant jobs by id, numerically
  // (docs/semantics.md#order-of-same-instant-submissions).
  ScratchFiles files;
  const std::string path = files.write("t.swf", record("3", "50", "1", "1", "1", "1") +
                                                    record("10", "20", "1", "1", "1", "1") +
                                                    record("9", "20", "1", "1", "1", "1"));
  const Workload workload = read_workload(path);
  ASSERT_EQ(workload.jobs.size(), 3u);
  EXPECT_EQ(workload.jobs[0].job.id, "9");
  EXPECT_EQ(workload.jobs[1].job.id, "10");
  EXPECT_EQ(workload.jobs[2].job.id, "3");
}

TEST(SwfReader, AcceptsCrlfBlankLinesAndTabs) {
  ScratchFiles files;
  const std::string path =
      files.write("t.swf",
                  "; MaxProcs: 2\r\n\r\n1\t0\t-1\t5\t1\t-1\t-1\t1\t9\t-1\t1\t-1\t-1\t-1\t"
                  "-1\t-1\t-1\t-1\r\n   \r\n");
  const Workload workload = read_workload(path);
  EXPECT_EQ(workload.machine_count, 2);
  ASSERT_EQ(workload.jobs.size(), 1u);
  EXPECT_TRUE(workload.jobs[0].is_valid()) << workload.jobs[0].rejection.text();
  EXPECT_EQ(workload.jobs[0].job.time_limit, from_seconds(9));
}

}  // namespace
}  // namespace batfill::workload
