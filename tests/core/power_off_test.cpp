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

TEST(PowerOff, S1SequentialWakesForTheHeadOnly) {
  const std::vector<CaseJob> jobs = {
      {"a", 0, 2, 10, 10}, {"b", 0, 1, 10, 10}, {"c", 100, 2, 10, 10}, {"d", 100, 1, 10, 10}};
  const Outcome outcome = run_case(jobs, "sequential", power_options(0));
  EXPECT_EQ(outcome.starts,
            (std::map<std::string, long>{{"a", 0}, {"b", 10}, {"c", 200}, {"d", 210}}));
  EXPECT_EQ(outcome.switches,
            (std::vector<std::string>{"0: 2-3 off", "10: 1 off", "20: 0 off", "100: 0-1 on",
                                      "210: 1 off", "220: 0 off"}));
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

namespace batfill {
namespace {

// A literal transcription of the rules of docs/semantics.md#idle-power-off-power_off_after, one
// machine at a time, kept beside a replay from its decisions alone: at each pass it applies the
// instant's completions and reports, checks that every start is on awake idle machines, works
// out the switches the rules ask for, and compares them with the scheduler's.
class LiteralPowerRules : public testing::ReplayObserver {
 public:
  // `sequential`: the demand is the head's nodes while nothing runs; the trace's jobs are queued
  // in id order (FCFS, ids numbered in submission order).
  LiteralPowerRules(int machines, PowerOptions options, bool sequential)
      : options_(options), machines_(static_cast<std::size_t>(machines)), sequential_(sequential) {}

  void before_submit(const Scheduler&, const Job& job, Time) override {
    waiting_[job.id] = job.nodes;
  }

  void after_pass(const Scheduler&, Time now, const std::vector<JobId>& completed,
                  const std::vector<Decision>& decisions) override {
    if (first_) {
      for (Machine& m : machines_) m.since = now;
      first_ = false;
    }
    for (const JobId& id : completed) {
      for_each_id(running_.at(id), [&](int m) {
        machines_[static_cast<std::size_t>(m)].busy = false;
        machines_[static_cast<std::size_t>(m)].since = now;
      });
      running_.erase(id);
    }
    for (auto due = reports_.begin(); due != reports_.end() && due->first == now;) {
      for (const int m : due->second) {
        Machine& machine = machines_[static_cast<std::size_t>(m)];
        machine.state = machine.state == kSwitchingOn ? kAwake : kAsleep;
        machine.since = now;
      }
      due = reports_.erase(due);
    }
    std::vector<int> off, on;
    for (const Decision& d : decisions) {
      if (d.kind == Decision::Kind::kReject) waiting_.erase(d.job_id);
      if (d.kind == Decision::Kind::kExecute) {
        for_each_id(d.machines, [&](int m) {
          Machine& machine = machines_[static_cast<std::size_t>(m)];
          EXPECT_TRUE(machine.state == kAwake && !machine.busy)
              << "job " << d.job_id << " started at " << to_seconds_text(now) << " on machine "
              << m << ", not awake and idle";
          machine.busy = true;
        });
        running_[d.job_id] = d.machines;
        waiting_.erase(d.job_id);
      }
      if (d.kind == Decision::Kind::kSwitchPower) {
        for_each_id(d.machines, [&](int m) {
          (d.power == PowerTarget::kSleep ? off : on).push_back(m);
        });
      }
    }
    const auto [expected_off, expected_on] = literal_switches(now);
    EXPECT_EQ(off, expected_off) << "switched off at " << to_seconds_text(now);
    EXPECT_EQ(on, expected_on) << "switched on at " << to_seconds_text(now);
    for (const int m : off) apply_switch(m, kSwitchingOff, now + options_.switch_off, now);
    for (const int m : on) apply_switch(m, kSwitchingOn, now + options_.switch_on, now);
    switches_ += static_cast<int>(off.size() + on.size());
  }

  int switches() const { return switches_; }

 private:
  enum State { kAwake, kSwitchingOff, kAsleep, kSwitchingOn };
  struct Machine {
    State state = kAwake;
    bool busy = false;
    Time since = 0;
  };

  std::pair<std::vector<int>, std::vector<int>> literal_switches(Time now) const {
    long long demand = 0;
    for (const auto& [id, nodes] : waiting_) demand += nodes;
    if (sequential_) {
      demand = 0;
      int head = -1;
      for (const auto& [id, nodes] : waiting_) {
        if (head < 0 || std::stoi(id) < head) head = std::stoi(id), demand = nodes;
      }
      if (!running_.empty()) demand = 0;
    }
    demand = std::min<long long>(demand, static_cast<long long>(machines_.size()));
    int free = 0, coming = 0, awake = 0;
    for (const Machine& m : machines_) {
      free += m.state == kAwake && !m.busy;
      coming += m.state == kSwitchingOn;
      awake += m.state == kAwake;
    }
    std::vector<int> off, on;
    if (demand > free + coming) {  // rule 1: the lowest asleep machines
      for (std::size_t m = 0; m < machines_.size(); ++m) {
        if (static_cast<long long>(on.size()) == demand - free - coming) break;
        if (machines_[m].state == kAsleep) on.push_back(static_cast<int>(m));
      }
      return {off, on};
    }
    // Rule 2: the highest idle machines idle long enough, one at a time while the rule allows.
    for (std::size_t i = machines_.size(); i-- > 0;) {
      const Machine& m = machines_[i];
      if (m.state != kAwake || m.busy || now - m.since < options_.off_after) continue;
      if (free - 1 + coming < demand || awake - 1 < options_.keep_awake) break;
      off.insert(off.begin(), static_cast<int>(i));
      --free;
      --awake;
    }
    return {off, on};
  }

  void apply_switch(int m, State state, Time report, Time now) {
    machines_[static_cast<std::size_t>(m)].state = state;
    machines_[static_cast<std::size_t>(m)].since = now;
    reports_[report].push_back(m);
  }

  static std::string to_seconds_text(Time t) { return std::to_string(static_cast<long>(t / kMicrosecondsPerSecond)) + " s"; }

  PowerOptions options_;
  std::vector<Machine> machines_;
  std::map<JobId, int> waiting_;
  std::map<JobId, MachineSet> running_;
  std::map<Time, std::vector<int>> reports_;
  bool sequential_;
  bool first_ = true;
  int switches_ = 0;
};

std::vector<testing::TraceJob> random_trace(std::mt19937& random, int machine) {
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  std::vector<testing::TraceJob> trace;
  const int jobs = uniform(5, 40);
  int submit = 0;
  for (int i = 0; i < jobs; ++i) {
    // Bursts and long gaps, so that machines idle long enough to sleep and are woken again.
    submit += uniform(0, 3) == 0 ? 0 : uniform(0, 4) == 0 ? uniform(100, 600) : uniform(0, 40);
    testing::TraceJob t = testing::trace_job(
        std::to_string(i), from_seconds(submit), uniform(1, machine),
        from_seconds(uniform(1, 20) * 10), 0, uniform(0, 1) == 0 ? "1" : "2", uniform(0, 2));
    t.runtime = uniform(0, 2) == 0 ? from_seconds(uniform(0, 200)) : t.job.time_limit;
    trace.push_back(t);
  }
  return trace;
}

// Two queues, one of them low priority without backfilling and with a user limit.
std::shared_ptr<const QueueConfig> two_queues(int machine) {
  auto config = std::make_shared<QueueConfig>();
  QueueSpec high;
  high.name = "high";
  high.ids = {"1"};
  high.priority = 1;
  QueueSpec low;
  low.name = "low";
  low.ids = {"2"};
  low.backfill = false;
  low.user_slot_limit = machine;
  config->queues = {high, low};
  return config;
}

TEST(PowerOffLiteral, EveryPassSwitchesAsTheRulesSayUnderEveryPolicy) {
  constexpr int kMachine = 8;
  std::mt19937 random(2026);
  int switches = 0;
  for (int round = 0; round < 60; ++round) {
    const std::vector<testing::TraceJob> trace = random_trace(random, kMachine);
    SchedulerOptions options;
    options.power.off_after = from_seconds(std::uniform_int_distribution<int>(0, 3)(random) * 40);
    options.power.switch_off = from_seconds(std::uniform_int_distribution<int>(0, 30)(random));
    options.power.switch_on = from_seconds(std::uniform_int_distribution<int>(0, 150)(random));
    options.power.keep_awake = std::uniform_int_distribution<int>(0, 3)(random);
    std::vector<std::string> policies = kPolicies;
    policies.push_back("sequential");
    for (const std::string& policy : policies) {
      for (const int variant : {0, 1, 2}) {
        if (policy == "sequential" && variant != 0) continue;
        SchedulerOptions run = options;
        if (variant == 1 && policy != "conservative") {  // the spec's CONSERVATIVE plans walltimes
          run.predictor = "tsafrir";
          run.corrector = "reqtime";
        }
        if (variant == 2) run.queues = two_queues(kMachine);
        LiteralPowerRules literal(kMachine, run.power, policy == "sequential");
        const testing::ReplayResult result =
            testing::replay(trace, kMachine, policy, run, &literal);
        ASSERT_FALSE(::testing::Test::HasFailure())
            << policy << " variant " << variant << " round " << round;
        EXPECT_EQ(result.start.size() + result.rejected.size(), trace.size());
        switches += literal.switches();
      }
    }
  }
  EXPECT_GT(switches, 1000);  // the workloads do make machines sleep and wake
}

}  // namespace
}  // namespace batfill
