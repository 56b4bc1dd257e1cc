#pragma once
// Runs the jobs the decision process starts and tells when they end.
//
// Delay jobs are timed completions: their end is known at their start. Parallel profiles run as
// SimGrid ptask_L07 tasks on the allocated hosts, so their duration is SimGrid's model of the
// platform; an actor per job waits for its task and reports the end. Both stop at the walltime,
// as Batsim does.

#include <cstdint>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u.hpp>

#include "batfill/common/machine_set.hpp"
#include "batfill/workload/workload.hpp"
#include "simulated_job.hpp"

namespace batfill::simulator {

class JobExecutor {
 public:
  explicit JobExecutor(const std::vector<simgrid::s4u::Host*>& compute_hosts);

  // Starts the job in `slot` of the stand-in's JobTable (named `name` in SimGrid) at `now` on
  // `machines`.
  void start(std::size_t slot, const std::string& name, const Job& job,
             const workload::Profile& profile, const MachineSet& machines, Time now);

  // Switches `machine` on or off as Batsim does (docs/protocol.md#the-power-model-of-the-stand-in):
  // one flop in the virtual pstate, then the target pstate. Its end is taken like a parallel
  // job's, by take_switch_ends.
  void start_switch(int machine, int virtual_pstate, int target);

  // Stops the running job in `slot` at `now`, whose end will never be reported, and returns the
  // fraction of its profile done, as Batsim reports it in JOB_KILLED: the time run over the
  // delay of a delay job, the work done of a parallel task.
  double kill(std::size_t slot, Time now);

  // The earliest end of a running delay job, or kNever.
  Time next_delay_end();
  // Whether anything runs in SimGrid: a parallel job or a switch.
  bool parallel_running() const { return parallel_running_ > 0; }

  // Sleeps in simulated time until `next`, or until a parallel job ends if that comes first,
  // and returns the instant reached, never before `last_now`. With no parallel job running,
  // `next` must not be kNever.
  Time wait_until(Time next, Time last_now);

  // Moves the completions at or before `now` to `ended`, unordered.
  void take_completions(Time now, std::vector<Completion>& ended);

  struct SwitchEnd {
    Time time = 0;
    int machine = 0;
    int pstate = 0;
  };
  // Moves the switches ended by now to `ended`, in the order they ended.
  void take_switch_ends(Time now, std::vector<SwitchEnd>& ended);

 private:
  void start_parallel_task(std::size_t slot, const std::string& name, const Job& job,
                           const workload::Profile& profile, const MachineSet& machines);

  // Drops the ends of killed delay jobs from the top of delay_completions_.
  void drop_killed_delays();

  const std::vector<simgrid::s4u::Host*>& compute_hosts_;  // index = Batsim machine id
  // The ends of delay jobs, each with the number of its run: a slot is reused, and a killed
  // job's end stays in the queue until it comes to the top.
  struct DelayEnd {
    Completion completion;
    std::uint64_t run;
    bool operator>(const DelayEnd& other) const { return completion > other.completion; }
  };
  std::priority_queue<DelayEnd, std::vector<DelayEnd>, std::greater<>> delay_completions_;
  // Running delay jobs by slot: start and delay of the profile. A killed one leaves the map.
  struct DelayRun {
    Time start = 0;
    Time delay = 0;
    std::uint64_t run = 0;
  };
  std::uint64_t delay_runs_started_ = 0;
  std::unordered_map<std::size_t, DelayRun> delay_runs_;
  // Running parallel tasks by slot, for kills.
  std::unordered_map<std::size_t, simgrid::s4u::ExecPtr> parallel_tasks_;

  // Filled by the jobs' actors, emptied by the stand-in's actor.
  simgrid::s4u::MutexPtr mutex_ = simgrid::s4u::Mutex::create();
  simgrid::s4u::ConditionVariablePtr parallel_done_ = simgrid::s4u::ConditionVariable::create();
  int parallel_running_ = 0;
  std::vector<Completion> parallel_finished_;
  std::vector<SwitchEnd> switches_finished_;
};

}  // namespace batfill::simulator
