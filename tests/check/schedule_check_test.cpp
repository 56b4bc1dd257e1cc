// batfill check's rules (docs/semantics.md#checking-a-schedule-batfill-check) on small hand-written
// _jobs.csv files: a valid schedule passes, and each hand-made corruption is reported with its jobs
// and time.

#include <gtest/gtest.h>

#include "batfill/check/schedule_check.hpp"

namespace batfill::check {
namespace {

const std::string kHeader =
    "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,"
    "success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,"
    "stretch,allocated_resources,consumed_energy,metadata\n";

// job, submit, size, start, execution, finish, waiting, allocation
std::string row(const std::string& id, const std::string& submit, int size,
                const std::string& start, const std::string& execution, const std::string& finish,
                const std::string& waiting, const std::string& alloc) {
  return id + ",w0,p," + submit + "," + std::to_string(size) +
         ",100.000000,1,COMPLETED_SUCCESSFULLY," + start + "," + execution + "," + finish + "," +
         waiting + ",0,1," + alloc + ",-1,\"\"\n";
}

// Two jobs on 4 machines: 1 on 0-1 during [0, 10), 2 on 0-3 during [10, 15), waited 5 s.
const std::string kValid =
    kHeader + row("1", "0.000000", 2, "0.000000", "10.000000", "10.000000", "0.000000", "0-1") +
    row("2", "5.000000", 4, "10.000000", "5.000000", "15.000000", "5.000000", "0-3");

std::vector<std::string> check_text(const std::string& text, CheckOptions options = {}) {
  return check_schedule(read_jobs_csv("test.csv", text), options);
}

TEST(ScheduleCheck, ValidScheduleHasNoViolation) {
  CheckOptions options;
  options.machine_count = 4;
  options.workload_ids = std::set<std::string>{"1", "2"};
  EXPECT_TRUE(check_text(kValid, options).empty());
}

TEST(ScheduleCheck, RejectedJobWithEmptyTimesIsAccepted) {
  const std::string text = kValid + "3,w0,p,1.000000,9,100.000000,0,REJECTED,,,,,,,,-1,\"\"\n";
  EXPECT_TRUE(check_text(text).empty());
}

TEST(ScheduleCheck, OverlapOnOneMachineIsReported) {
  // Job 2 starts at 9.5 while job 1 holds machines 0-1 until 10.
  const std::string text =
      kHeader + row("1", "0.000000", 2, "0.000000", "10.000000", "10.000000", "0.000000", "0-1") +
      row("2", "5.000000", 2, "9.500000", "5.000000", "14.500000", "4.500000", "1-2");
  const std::vector<std::string> violations = check_text(text);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0],
            "machine 1 runs job '1' (line 2) and job '2' (line 3) at once at 9.500000 s (the first "
            "ends at 10.000000 s)");
}

TEST(ScheduleCheck, WrongAllocationSizeIsReported) {
  const std::string text =
      kHeader + row("1", "0.000000", 3, "0.000000", "10.000000", "10.000000", "0.000000", "0-1");
  const std::vector<std::string> violations = check_text(text);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0],
            "job '1' (line 2) at 0.000000 s: allocation '0-1' has 2 machines, it requested 3");
}

TEST(ScheduleCheck, AllocationOutsideTheMachineIsReported) {
  CheckOptions options;
  options.machine_count = 3;
  const std::vector<std::string> violations = check_text(kValid, options);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_NE(violations[0].find("job '2' (line 3) at 10.000000 s: allocation '0-3' lies outside "
                               "machines 0-2"),
            std::string::npos);
}

TEST(ScheduleCheck, MissingAndUnknownWorkloadJobsAreReported) {
  CheckOptions options;
  options.workload_ids = std::set<std::string>{"1", "3"};
  const std::vector<std::string> violations = check_text(kValid, options);
  ASSERT_EQ(violations.size(), 2u);
  EXPECT_EQ(violations[0], "job '2' (line 3) is not in the workload");
  EXPECT_EQ(violations[1], "workload job '3' is missing");
}

TEST(ScheduleCheck, DuplicateRowIsReported) {
  const std::string text =
      kValid + row("1", "0.000000", 2, "20.000000", "1.000000", "21.000000", "20.000000", "0-1");
  const std::vector<std::string> violations = check_text(text);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0], "job '1' (line 4) appears again (first at line 2)");
}

TEST(ScheduleCheck, InconsistentTimesAreReported) {
  // Starts 1 s before its submission, finish 2 µs off start + execution, waiting wrong.
  const std::string text =
      kHeader + row("1", "1.000000", 1, "0.000000", "10.000000", "10.000002", "0.000000", "0");
  const std::vector<std::string> violations = check_text(text);
  ASSERT_EQ(violations.size(), 3u);
  EXPECT_EQ(violations[0],
            "job '1' (line 2) starts at 0.000000 s, before its submission at 1.000000 s");
  EXPECT_NE(violations[1].find("finish 10.000002 s != start 0.000000 + execution 10.000000"),
            std::string::npos);
  EXPECT_NE(violations[2].find("waiting 0.000000 s != start 0.000000 - submission 1.000000"),
            std::string::npos);
}

TEST(ScheduleCheck, OneMicrosecondOfRoundingIsTolerated) {
  const std::string text =
      kHeader + row("1", "0.000000", 1, "0.333333", "0.333333", "0.666667", "0.333333", "0");
  EXPECT_TRUE(check_text(text).empty());
}

TEST(ScheduleCheck, QuotedIdsWithCommaQuoteAndNewlineAreRead) {
  const std::string text = kHeader + row("\"a,\"\"b\nc\"", "0.000000", 1, "0.000000", "1.000000",
                                         "1.000000", "0.000000", "0");
  const std::vector<ScheduledJob> jobs = read_jobs_csv("test.csv", text);
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].id, "a,\"b\nc");
}

TEST(ScheduleCheck, UnreadableRowNamesFileLineAndColumn) {
  const std::string text = kHeader + row("1", "zero", 1, "0", "1", "1", "0", "0");
  try {
    read_jobs_csv("test.csv", text);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "'test.csv': line 2: column 'submission_time': not a time: 'zero'");
  }
}

TEST(ScheduleCheck, MissingColumnIsAnError) {
  EXPECT_THROW(read_jobs_csv("test.csv", "job_id,submission_time\n1,0\n"), std::runtime_error);
}

// A row's state, times and allocation agree: a job that completed held the machines it
// requested, a rejected one none; before, an empty allocation passed as "never ran".
TEST(ScheduleCheck, CompletedJobWithoutMachinesIsAViolation) {
  const std::string text =
      kValid + row("3", "1.000000", 8, "20.000000", "5.000000", "25.000000", "19.000000", "");
  EXPECT_EQ(check_text(text),
            (std::vector<std::string>{
                "job '3' (line 4) at 20.000000 s: allocation '' has 0 machines, it requested 8"}));
}

TEST(ScheduleCheck, RejectedJobHoldingMachinesIsAViolation) {
  const std::string text = kValid + "3,w0,p,1.000000,8,100.000000,0,REJECTED,,,,,,,0-7,-1,\"\"\n";
  EXPECT_EQ(check_text(text),
            (std::vector<std::string>{"job '3' (line 4) is REJECTED but holds machines '0-7'"}));
}

// Batsim 4.2.1's and 5's final states (their job_state_to_string) are the only ones a row may
// end in; any other is an error naming the line.
TEST(ScheduleCheck, UnknownFinalStateIsAnError) {
  std::string text = kValid;
  text.replace(text.rfind("COMPLETED_SUCCESSFULLY"), 22, "EXPLODED");
  try {
    check_text(text);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "'test.csv': line 3: column 'final_state': 'EXPLODED' is not a final state of Batsim "
              "(COMPLETED_SUCCESSFULLY, COMPLETED_FAILED, COMPLETED_WALLTIME_REACHED, "
              "COMPLETED_KILLED, REJECTED)");
  }
  for (const char* state : {"COMPLETED_FAILED", "COMPLETED_WALLTIME_REACHED", "COMPLETED_KILLED"}) {
    std::string other = kValid;
    other.replace(other.rfind("COMPLETED_SUCCESSFULLY"), 22, state);
    EXPECT_TRUE(check_text(other).empty()) << state;
  }
}

// An --energy run's _pstate_changes.csv, as Batsim 4.2.1 writes it: all 4 machines at pstate 0
// at time 0; machines 2-3 switch off at 10.5 (done at 16.6), switch on at 20 (done at 171.52).
const std::string kPstates =
    "time,machine_id,new_pstate\n0,0-3,0\n10.5,2-3,-2\n16.6,2-3,13\n20,2-3,-1\n171.52,2-3,0\n";

std::vector<std::string> check_with_pstates(const std::string& jobs, const std::string& pstates) {
  CheckOptions options;
  options.power_spans = read_pstate_changes_csv("p.csv", pstates);
  return check_text(jobs, options);
}

TEST(ScheduleCheck, PowerSpansFollowThePstateRows) {
  const std::vector<PowerSpan> spans = read_pstate_changes_csv("p.csv", kPstates);
  ASSERT_EQ(spans.size(), 6u);  // 3 states x 2 machines
  int sleeping = 0;
  for (const PowerSpan& span : spans) {
    if (std::string(span.state) != "sleeping") continue;
    ++sleeping;
    EXPECT_EQ(span.start, 16'600'000);
    EXPECT_EQ(span.end, 20'000'000);
    EXPECT_EQ(span.line, 4);
  }
  EXPECT_EQ(sleeping, 2);
}

TEST(ScheduleCheck, JobsOnAwakeMachinesPass) {
  // Job 2 uses machines 2-3 once they are on again, at 171.52 s.
  const std::string jobs =
      kHeader + row("1", "0.000000", 2, "0.000000", "10.000000", "10.000000", "0.000000", "0-1") +
      row("2", "5.000000", 4, "171.520000", "5.000000", "176.520000", "166.520000", "0-3");
  EXPECT_TRUE(check_with_pstates(jobs, kPstates).empty());
}

TEST(ScheduleCheck, JobOnASleepingOrSwitchingMachineIsReported) {
  const std::string jobs =
      kHeader + row("1", "0.000000", 2, "17.000000", "1.000000", "18.000000", "17.000000", "1-2") +
      row("2", "5.000000", 1, "100.000000", "5.000000", "105.000000", "95.000000", "3") +
      row("3", "5.000000", 1, "5.000000", "6.000000", "11.000000", "0.000000", "2");
  const std::vector<std::string> violations = check_with_pstates(jobs, kPstates);
  ASSERT_EQ(violations.size(), 3u);
  EXPECT_EQ(violations[0],
            "job '1' (line 2) runs on machine 2 from 17.000000 s, while it is sleeping (from "
            "16.600000 s, line 4 of the pstate changes)");
  EXPECT_NE(violations[1].find("job '2' (line 3) runs on machine 3 from 100.000000 s, while it is "
                               "switching on (from 20.000000 s, line 5"),
            std::string::npos)
      << violations[1];
  EXPECT_NE(violations[2].find("job '3' (line 4) runs on machine 2 from 5.000000 s, while it is "
                               "switching off (from 10.500000 s"),
            std::string::npos)
      << violations[2];
}

// "%g" keeps six significant digits: 1234567.8 s is written 1.23457e+06, a few tenths later
// than the switch ended; a job started at the true end is no violation.
TEST(ScheduleCheck, PstateTimesAreReadWithTheirPrintedPrecision) {
  const std::string pstates =
      "time,machine_id,new_pstate\n0,0,0\n1.23451e+06,0,-2\n1.23452e+06,0,13\n"
      "1.23455e+06,0,-1\n1.23457e+06,0,0\n";
  const std::string jobs = kHeader + row("1", "0.000000", 1, "1234567.800000", "1.000000",
                                         "1234568.800000", "1234567.800000", "0");
  EXPECT_TRUE(check_with_pstates(jobs, pstates).empty());
  EXPECT_THROW(read_pstate_changes_csv("p.csv", "time,machine_id,new_pstate\n0,0,off\n"),
               std::runtime_error);
}

}  // namespace
}  // namespace batfill::check
