// write_jobs_csv and write_schedule_csv on hand-built records: Batsim 4's columns, in its order,
// times with 6 decimals.

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "batfill/simulator/outputs.hpp"
#include "records.hpp"

namespace batfill::simulator {
namespace {

using testing::executed;
using testing::rejected;
using testing::submitted;

const char* const kJobsHeader =
    "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,"
    "success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,"
    "stretch,allocated_resources,consumed_energy,metadata\n";

std::string jobs_csv(const std::vector<JobRecord>& jobs) {
  std::ostringstream out;
  write_jobs_csv(out, jobs);
  return out.str();
}

TEST(JobsCsv, ExecutedJobHasEveryTimeWithSixDecimalsAndCanonicalMachines) {
  // Submitted at 1.5 s, started at 2 s, finished at 12.25 s on machines given as 7, 0-1, 2-3:
  // execution 10.25 s, wait 0.5 s, turnaround 10.75 s, stretch 10.75 / 10.25 = 1.0487804...
  MachineSet machines = machine_range(7, 7);
  machines += machine_range(0, 1);
  machines += machine_range(2, 3);
  const JobRecord job =
      executed(submitted("1", 1'500'000, 5, from_seconds(100), "delay10"),
               FinalState::kCompletedSuccessfully, from_seconds(2), 12'250'000, machines);
  EXPECT_EQ(jobs_csv({job}),
            std::string(kJobsHeader) +
                "1,w0,delay10,1.500000,5,100.000000,1,COMPLETED_SUCCESSFULLY,2.000000,10.250000,"
                "12.250000,0.500000,10.750000,1.048780,0-3 7,-1,\"\"\n");
}

// JSON ids may hold a comma, a quote or a line break: such a cell is quoted with `"` doubled
// (docs/semantics.md#prefix_jobscsv), so the row keeps its 17 columns; plain ids stay unquoted.
TEST(JobsCsv, IdsWithCommaQuoteOrNewlineAreQuoted) {
  const JobRecord comma = rejected(submitted("a,b", 0, 1), "r");
  const JobRecord quote = rejected(submitted("say \"hi\"", 0, 1, kNoTimeLimit, "p,1"), "r");
  const JobRecord newline = rejected(submitted("x\ny", 0, 1), "r");
  EXPECT_EQ(jobs_csv({comma, quote, newline}),
            std::string(kJobsHeader) +
                "\"a,b\",w0,p,0.000000,1,-1.000000,0,REJECTED,,,,,,,,-1,\"\"\n"
                "\"say \"\"hi\"\"\",w0,\"p,1\",0.000000,1,-1.000000,0,REJECTED,,,,,,,,-1,\"\"\n"
                "\"x\ny\",w0,p,0.000000,1,-1.000000,0,REJECTED,,,,,,,,-1,\"\"\n");
}

TEST(JobsCsv, RejectedJobHasEmptyTimesAndNoTimeLimitIsMinusOne) {
  // success 0; the seven columns from starting_time to allocated_resources are empty.
  const JobRecord job = rejected(submitted("2", from_seconds(3), 64), "too large");
  EXPECT_EQ(jobs_csv({job}),
            std::string(kJobsHeader) + "2,w0,p,3.000000,64,-1.000000,0,REJECTED,,,,,,,,-1,\"\"\n");
}

TEST(JobsCsv, WalltimeReachedIsNoSuccessAndMicrosecondsShow) {
  // Started 1 us after its submission at 0 and stopped at its 5 s limit: finish 5.000001 s,
  // turnaround 5.000001 s, stretch 5.000001 / 5 = 1.0000002, written 1.000000.
  const JobRecord job =
      executed(submitted("3", 0, 1, from_seconds(5)), FinalState::kCompletedWalltimeReached, 1,
               5'000'001, machine_range(4, 4));
  EXPECT_EQ(jobs_csv({job}),
            std::string(kJobsHeader) +
                "3,w0,p,0.000000,1,5.000000,0,COMPLETED_WALLTIME_REACHED,0.000001,5.000000,"
                "5.000001,0.000001,5.000001,1.000000,4,-1,\"\"\n");
}

TEST(JobsCsv, StretchHalfwayBetweenTwoSixDecimalValuesRoundsToEvenAsPrintf) {
  // Both run 128 s; turnarounds 129 s and 131 s give stretches 1.0078125 and 1.0234375, exact
  // in binary and halfway at the 6th decimal: printf's "%.6f" (glibc, exact value, ties to
  // even) writes 1.007812 and 1.023438.
  const std::string csv =
      jobs_csv({executed(submitted("a", 0, 1), FinalState::kCompletedSuccessfully, from_seconds(1),
                         from_seconds(129), machine_range(0, 0)),
                executed(submitted("b", 0, 1), FinalState::kCompletedSuccessfully, from_seconds(3),
                         from_seconds(131), machine_range(1, 1))});
  EXPECT_NE(csv.find(",129.000000,1.007812,0,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",131.000000,1.023438,1,"), std::string::npos) << csv;
}

TEST(JobsCsv, RowsKeepTheOrderOfTheRecords) {
  const std::string csv =
      jobs_csv({rejected(submitted("b", 0, 1), "x"), rejected(submitted("a", 0, 1), "x")});
  EXPECT_LT(csv.find("\nb,"), csv.find("\na,"));
}

TEST(ScheduleCsv, KeysInLexicographicOrderWithSixDecimals) {
  // On 4 machines (seconds): a runs 0-20 on 2 machines (success), b 10-15 on 1 (walltime
  // reached, submitted at 5), c 20-40 on 4 (failed, submitted at 10), d rejected.
  const std::vector<JobRecord> jobs = {
      executed(submitted("a", 0, 2), FinalState::kCompletedSuccessfully, 0, from_seconds(20),
               machine_range(0, 1)),
      executed(submitted("b", from_seconds(5), 1), FinalState::kCompletedWalltimeReached,
               from_seconds(10), from_seconds(15), machine_range(3, 3)),
      executed(submitted("c", from_seconds(10), 4), FinalState::kCompletedFailed, from_seconds(20),
               from_seconds(40), machine_range(0, 3)),
      rejected(submitted("d", 0, 8), "x"),
  };
  RunInfo run;
  run.version = "batfill test";
  run.scheduling_seconds = 0.25;
  run.simulation_seconds = 1.5;
  std::ostringstream out;
  write_schedule_csv(out, compute_metrics(jobs, 4), run);
  // makespan 40 (c's finish); max slowdown 2 (b: 10 / 5); max turnaround 30 and max wait 10
  // (c); mean bounded slowdown (1 + 1 + 1.5) / 3 = 1.166667; mean slowdown (1 + 2 + 1.5) / 4
  // = 1.125; mean turnaround (20 + 10 + 30) / 4 = 15; mean wait (0 + 5 + 10) / 4 = 3.75;
  // 3 finished, of which 2 killed (b, c: not a success); success rate 1 / 4; computing
  // 20 x 2 + 5 x 1 + 20 x 4 = 125 node-seconds, idle 4 x 40 - 125 = 35; utilization
  // 125 / 160 = 0.78125.
  EXPECT_EQ(out.str(),
            "batsim_version,consumed_joules,makespan,max_slowdown,max_turnaround_time,"
            "max_waiting_time,mean_bounded_slowdown,mean_slowdown,mean_turnaround_time,"
            "mean_waiting_time,nb_computing_machines,nb_grouped_switches,nb_jobs,"
            "nb_jobs_finished,nb_jobs_killed,nb_jobs_rejected,nb_jobs_success,"
            "nb_machine_switches,scheduling_time,simulation_time,success_rate,time_computing,"
            "time_idle,time_sleeping,time_switching_off,time_switching_on,time_unavailable,"
            "utilization\n"
            "batfill test,0.000000,40.000000,2.000000,30.000000,10.000000,1.166667,1.125000,"
            "15.000000,3.750000,4,0,4,3,2,1,1,0,0.250000,1.500000,0.250000,125.000000,"
            "35.000000,0.000000,0.000000,0.000000,0.000000,0.781250\n");
}

// The summary groups rejections by their bare reason (docs/semantics.md#run-summary): the position
// of the record and the job named do not split a group, whatever characters they hold.
TEST(RejectionReasons, GroupByTheBareReason) {
  const std::vector<Rejection> rejections = {
      {"t.swf:12", "", "runtime (field 4) is -1, so there is nothing to replay"},
      {"t.swf:13", "", "runtime (field 4) is -1, so there is nothing to replay"},
      {"/a b/w.json:3: jobs[2]", "", "runtime (field 4) is -1, so there is nothing to replay"},
      {"", "w0!3", "requests 9 nodes but the machine has 4"},
      {"", "w0!it's", "requests 9 nodes but the machine has 4"},
      {"", "", "requests 9 nodes but the machine has 4"},
      {"w.json: jobs[7]", "", "'res' must be an integer >= 0"},
      {"", "", ""},
  };
  RejectionReasons grouped;
  for (const Rejection& rejection : rejections) {
    grouped.add(rejected(submitted("1", 0, 1), rejection));
  }
  grouped.add(executed(submitted("2", 0, 1), FinalState::kCompletedSuccessfully, 0, 1,
                       machine_range(0, 0)));
  const std::map<std::string, int> expected = {
      {"", 1},
      {"'res' must be an integer >= 0", 1},
      {"requests 9 nodes but the machine has 4", 3},
      {"runtime (field 4) is -1, so there is nothing to replay", 3},
  };
  EXPECT_EQ(grouped.groups(), expected);
}

}  // namespace
}  // namespace batfill::simulator
