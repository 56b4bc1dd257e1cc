// Idle power-off (docs/semantics.md#idle-power-off-power_off_after): the hand-derived cases of
// that section under every policy, and the rules checked pass by pass against a literal
// transcription of them on random workloads.

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

const std::vector<std::string> kPolicies = {"none", "easy", "conservative", "easy-classic",
                                            "conservative-classic"};

// The section's platform: 4 machines, switches off in 10 s and on in 100 s.
SchedulerOptions power_options(int off_after_seconds, int keep_awake = 0) {
  SchedulerOptions options;
  options.power.off_after = from_seconds(off_after_seconds);
  options.power.switch_off = from_seconds(10);
  options.power.switch_on = from_seconds(100);
  options.power.keep_awake = keep_awake;
  return options;
}

// Jobs (name, submit, nodes, walltime, runtime) in seconds.
struct CaseJob {
  std::string name;
  int submit, nodes, walltime, runtime;
};

std::vector<testing::TraceJob> trace_of(const std::vector<CaseJob>& jobs) {
  std::vector<testing::TraceJob> trace;
  for (const CaseJob& j : jobs) {
    trace.push_back(testing::trace_job(j.name, from_seconds(j.submit), j.nodes,
                                       from_seconds(j.walltime), from_seconds(j.runtime)));
  }
  return trace;
}

struct Outcome {
  std::map<std::string, long> starts;
  std::vector<std::string> switches;  // "TIME: MACHINES off|on"
};

Outcome run_case(const std::vector<CaseJob>& jobs, const std::string& policy,
                 const SchedulerOptions& options) {
  const testing::ReplayResult result = testing::replay(trace_of(jobs), 4, policy, options);
  Outcome outcome;
  for (const auto& [id, start] : result.start) {
    outcome.starts[id] = static_cast<long>(start / kMicrosecondsPerSecond);
  }
  for (const auto& change : result.switches) {
    outcome.switches.push_back(std::to_string(static_cast<long>(change.time / kMicrosecondsPerSecond)) + ": " +
                               to_string(change.machines) +
                               (change.target == PowerTarget::kSleep ? " off" : " on"));
  }
  return outcome;
}

const std::vector<CaseJob> kP1 = {{"a", 0, 2, 1000, 50}};

TEST(PowerOff, P1IdleMachinesSleepAfterTheSetting) {
  for (const std::string& policy : kPolicies) {
    const Outcome outcome = run_case(kP1, policy, power_options(60));
    EXPECT_EQ(outcome.starts, (std::map<std::string, long>{{"a", 0}})) << policy;
    EXPECT_EQ(outcome.switches, (std::vector<std::string>{"60: 2-3 off", "110: 0-1 off"}))
        << policy;
  }
}

TEST(PowerOff, P2TheHeadWaitsForItsWakeUp) {
  std::vector<CaseJob> jobs = kP1;
  jobs.push_back({"b", 200, 4, 100, 100});
  jobs.push_back({"c", 200, 1, 50, 50});
  for (const std::string& policy : kPolicies) {
    const Outcome outcome = run_case(jobs, policy, power_options(60));
    EXPECT_EQ(outcome.starts, (std::map<std::string, long>{{"a", 0}, {"b", 300}, {"c", 400}}))
        << policy;
    EXPECT_EQ(outcome.switches, (std::vector<std::string>{"60: 2-3 off", "110: 0-1 off",
                                                          "200: 0-3 on", "460: 1-3 off",
                                                          "510: 0 off"}))
        << policy;
  }
}

TEST(PowerOff, P3TheReservationCountsTheSwitchOn) {
  const std::vector<CaseJob> jobs = {
      {"a", 0, 2, 50, 50}, {"b", 20, 4, 100, 100}, {"c", 20, 1, 10, 10}, {"d", 20, 2, 80, 80}};
  for (const std::string& policy : kPolicies) {
    const Outcome outcome = run_case(jobs, policy, power_options(0));
    if (policy == "none") {
      EXPECT_EQ(outcome.starts,
                (std::map<std::string, long>{{"a", 0}, {"b", 120}, {"c", 220}, {"d", 220}}));
      EXPECT_EQ(outcome.switches,
                (std::vector<std::string>{"0: 2-3 off", "20: 2-3 on", "220: 3 off", "230: 0 off",
                                          "300: 1-2 off"}));
      continue;
    }
    EXPECT_EQ(outcome.starts,
              (std::map<std::string, long>{{"a", 0}, {"b", 120}, {"c", 50}, {"d", 220}}))
        << policy;
    EXPECT_EQ(outcome.switches, (std::vector<std::string>{"0: 2-3 off", "20: 2-3 on",
                                                          "220: 2-3 off", "300: 0-1 off"}))
        << policy;
  }
}

TEST(PowerOff, P4NeverOffWhileThePlanNeedsTheMachine) {
  const std::vector<CaseJob> jobs = {{"a", 0, 3, 100, 100}, {"b", 0, 4, 100, 100}};
  for (const std::string& policy : kPolicies) {
    const Outcome outcome = run_case(jobs, policy, power_options(0));
    EXPECT_EQ(outcome.starts, (std::map<std::string, long>{{"a", 0}, {"b", 100}})) << policy;
    EXPECT_EQ(outcome.switches, (std::vector<std::string>{"200: 0-3 off"})) << policy;
  }
}

TEST(PowerOff, P5MachinesKeptAwake) {
  const std::vector<CaseJob> jobs = {{"a", 0, 1, 10, 10}};
  for (const std::string& policy : kPolicies) {
    const Outcome outcome = run_case(jobs, policy, power_options(0, 1));
    EXPECT_EQ(outcome.starts, (std::map<std::string, long>{{"a", 0}})) << policy;
    EXPECT_EQ(outcome.switches, (std::vector<std::string>{"0: 1-3 off"})) << policy;
  }
}

TEST(PowerOff, P6WokenAtTheSwitchOffsReport) {
  const std::vector<CaseJob> jobs = {{"a", 0, 1, 10, 10}, {"b", 5, 4, 10, 10}};
  for (const std::string& policy : kPolicies) {
    const Outcome outcome = run_case(jobs, policy, power_options(0));
    EXPECT_EQ(outcome.starts, (std::map<std::string, long>{{"a", 0}, {"b", 110}})) << policy;
    EXPECT_EQ(outcome.switches,
              (std::vector<std::string>{"0: 1-3 off", "10: 1-3 on", "120: 0-3 off"}))
        << policy;
  }
}

// Off by default: no switch, and the same schedule as without the option.
TEST(PowerOff, OffByDefaultChangesNothing) {
  const std::vector<CaseJob> jobs = {
      {"a", 0, 2, 50, 50}, {"b", 20, 4, 100, 100}, {"c", 20, 1, 10, 10}, {"d", 20, 2, 80, 80}};
  for (const std::string& policy : kPolicies) {
    const testing::ReplayResult result = testing::replay(trace_of(jobs), 4, policy);
    EXPECT_TRUE(result.switches.empty()) << policy;
  }
}

TEST(PowerOff, AReportOfAMachineNotSwitchingIsRefused) {
  Scheduler scheduler(4, make_policy("easy"), power_options(0));
  scheduler.schedule(0);  // 0-3 switched off
  EXPECT_THROW(scheduler.power_reached(machine_range(0, 0), PowerTarget::kCompute, 5),
               std::invalid_argument);
  Scheduler without(4, make_policy("easy"));
  EXPECT_THROW(without.power_reached(machine_range(0, 0), PowerTarget::kSleep, 5),
               std::invalid_argument);
}

}  // namespace
}  // namespace batfill
