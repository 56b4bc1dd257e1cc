// Batsim's rules on replies, checked without an engine: each broken rule is an error that names
// the instant, the decision and the job.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "records.hpp"
#include "reply_checker.hpp"

namespace batfill::simulator {
namespace {

// A waiting job "w0!<id>" that requests `nodes` machines.
SimulatedJob waiting_job(const std::string& id, int nodes) {
  SimulatedJob job;
  job.batsim_id = "w0!" + id;
  job.record = testing::submitted(id, 0, nodes);
  job.stage = JobStage::kWaiting;
  return job;
}

template <class Check>
std::string error_of(Check check) {
  try {
    check();
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "no error";
}

const Time kNow = from_seconds(5);

// The error of starting job 1, which requests 2 machines, on `alloc` at 5 s.
std::string allocation_error(const ReplyChecker& checker, const MachineSet& alloc) {
  const SimulatedJob job = waiting_job("1", 2);
  return error_of([&] {
    checker.check_allocation("EXECUTE_JOB", job.batsim_id, job.record.job.nodes, alloc, kNow);
  });
}

TEST(ReplyChecker, AllocationMustHaveTheRequestedSize) {
  const MachineLedger machines(4);
  const ReplyChecker checker(machines);
  EXPECT_EQ(allocation_error(checker, machine_range(0, 0)),
            "invalid decision at t=5.000000: EXECUTE_JOB of 'w0!1' on 1 machine, but it "
            "requests 2");
}

TEST(ReplyChecker, AllocationMustNameExistingMachines) {
  const MachineLedger machines(4);  // machines 0-3
  const ReplyChecker checker(machines);
  EXPECT_EQ(allocation_error(checker, machine_range(3, 4)),
            "invalid decision at t=5.000000: EXECUTE_JOB of 'w0!1' on machines '3-4' outside 0-3");
}

TEST(ReplyChecker, AllocationMustNotUseBusyMachines) {
  MachineLedger machines(4);
  const ReplyChecker checker(machines);
  machines.occupy(machine_range(1, 2));
  // 0-1 overlaps the busy 1-2 on machine 1 only.
  EXPECT_EQ(allocation_error(checker, machine_range(0, 1)),
            "invalid decision at t=5.000000: EXECUTE_JOB of 'w0!1' on busy machines '1'");
  machines.release(machine_range(1, 2));
  EXPECT_EQ(allocation_error(checker, machine_range(0, 1)), "no error");
}

TEST(ReplyChecker, WakeUpMustBeAfterNow) {
  const MachineLedger machines(4);
  const ReplyChecker checker(machines);
  EXPECT_EQ(error_of([&] { checker.check_wake_up(kNow, kNow); }),
            "invalid decision at t=5.000000: CALL_ME_LATER at 5.000000 is not after now");
  EXPECT_EQ(error_of([&] { checker.check_wake_up(kNow + 1, kNow); }), "no error");
}

TEST(ReplyChecker, EventMustNotBeAfterTheReplysNow) {
  const MachineLedger machines(4);
  const ReplyChecker checker(machines);
  protocol::Event event;
  event.timestamp = from_seconds(6);
  EXPECT_EQ(error_of([&] { checker.check_timestamp(event, kNow, kNow); }),
            "invalid decision at t=5.000000: event timestamp 6.000000 is after the reply's now "
            "5.000000");
}

TEST(ReplyChecker, DecisionForAJobNotWaitingNamesWhy) {
  const MachineLedger machines(4);
  const ReplyChecker checker(machines);
  JobTable jobs = {waiting_job("1", 1)};
  jobs[0].stage = JobStage::kRunning;
  EXPECT_EQ(error_of([&] { checker.throw_not_waiting(jobs, "w0!1", "EXECUTE_JOB", kNow); }),
            "invalid decision at t=5.000000: EXECUTE_JOB of job 'w0!1', which is not waiting");
  EXPECT_EQ(error_of([&] { checker.throw_not_waiting(jobs, "w0!9", "REJECT_JOB", kNow); }),
            "invalid decision at t=5.000000: REJECT_JOB of unknown job 'w0!9'");
}

TEST(ReplyChecker, DeadlockCountsTheWaitingJobsAndNamesTheFirst) {
  JobTable jobs = {waiting_job("1", 1), waiting_job("2", 1), waiting_job("3", 1)};
  jobs[0].stage = JobStage::kEnded;  // waiting: 2 and 3
  EXPECT_EQ(error_of([&] { ReplyChecker::throw_deadlock(jobs); }),
            "the decision process left 2 job(s) waiting (first: w0!2) with nothing running and "
            "no wake-up pending; a real Batsim would deadlock here");
}

}  // namespace
}  // namespace batfill::simulator
