// DR_EVT CSV traces, following docs/semantics.md#dr_evt-csv.

#include <gtest/gtest.h>

#include "batfill/workload/workload.hpp"
#include "scratch_files.hpp"

namespace batfill::workload {
namespace {

using testing::ScratchFiles;

TEST(DrevtCsvReader, IdsAreRowNumbersAndJobsRunTheirLimit) {
  // The first rows of workloads/drevt-huge_2000jobs.csv (a copy of the shared DR_EVT trace).
  const Workload workload = read_workload(BATFILL_SOURCE_DIR "/workloads/drevt-huge_2000jobs.csv");
  ASSERT_EQ(workload.jobs.size(), 2000u);
  EXPECT_FALSE(workload.machine_count.has_value());
  const WorkloadJob& first = workload.jobs[0];  // "2,36,pbatch,3284"
  EXPECT_EQ(first.job.id, "1");
  EXPECT_EQ(first.job.submit_time, from_seconds(2));
  EXPECT_EQ(first.job.nodes, 36);
  EXPECT_EQ(first.job.time_limit, from_seconds(3284));
  EXPECT_EQ(first.profile, "3284");
  EXPECT_EQ(workload.profiles.at("3284").delay, from_seconds(3284));
  // Rows 6 and 7 are both submitted at 30: id order keeps file order.
  EXPECT_EQ(workload.jobs[5].job.id, "6");
  EXPECT_EQ(workload.jobs[6].job.id, "7");
}

TEST(DrevtCsvReader, ActualRunTimeColumnFoundByNameWhateverItsPlace) {
  ScratchFiles files;
  const Workload workload = read_workload(
      files.write("t.csv",
                  "actual_run_time,time_limit,queue,num_nodes,exit_status,job_submit_time\r\n"
                  "40,100,pdebug,3,0,7\r\n"
                  "150.5,100,pdebug,1,0,8\r\n"));
  ASSERT_EQ(workload.jobs.size(), 2u);
  EXPECT_EQ(workload.invalid_count(), 0u);
  EXPECT_EQ(workload.jobs[0].job.submit_time, from_seconds(7));
  EXPECT_EQ(workload.jobs[0].job.nodes, 3);
  EXPECT_EQ(workload.profiles.at(workload.jobs[0].profile).delay, from_seconds(40));
  EXPECT_EQ(workload.jobs[1].profile, "150.5");
  EXPECT_EQ(workload.jobs_overrunning_limit, 1);
}

TEST(DrevtCsvReader, MissingColumnThrowsWithPath) {
  ScratchFiles files;
  const std::string path = files.write("t.csv", "job_submit_time,queue,time_limit\n1,q,5\n");
  try {
    read_workload(path);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what())
                  .rfind(path + ":1: DR_EVT CSV header lacks column "
                                "'num_nodes'",
                         0),
              0u)
        << error.what();
  }
  EXPECT_THROW(read_workload(files.write("empty.csv", "")), std::runtime_error);
}

TEST(DrevtCsvReader, MalformedRowsBecomeInvalidJobsNamingFileAndLine) {
  ScratchFiles files;
  const std::string path = files.write("t.csv",
                                       "job_submit_time,num_nodes,queue,time_limit\n"
                                       "5,4,pbatch,100\n"
                                       "abc,4,pbatch,100\n"
                                       "9,4,pbatch\n"
                                       "\n"
                                       "10,0,pbatch,-3\n");
  const Workload workload = read_workload(path);
  ASSERT_EQ(workload.jobs.size(), 4u);
  EXPECT_TRUE(workload.jobs[0].is_valid());
  // An unreadable submit time falls back to the previous row's, so the job keeps its place.
  EXPECT_EQ(workload.jobs[1].job.id, "2");
  EXPECT_EQ(workload.jobs[1].job.submit_time, from_seconds(5));
  EXPECT_EQ(workload.jobs[1].rejection.text(),
            path + ":3: job_submit_time 'abc' is not a number >= 0");
  EXPECT_EQ(workload.jobs[2].rejection.text(),
            path + ":4: has 3 cells, the header has 4; time_limit '' is not a number > 0");
  // Blank lines are not rows: the next row is id 4, on line 6.
  EXPECT_EQ(workload.jobs[3].job.id, "4");
  EXPECT_EQ(
      workload.jobs[3].rejection.text(),
      path + ":6: num_nodes '0' is not a whole number > 0; time_limit '-3' is not a number > 0");
}

}  // namespace
}  // namespace batfill::workload
