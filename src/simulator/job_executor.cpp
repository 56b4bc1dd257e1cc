#include "job_executor.hpp"

#include <simgrid/Exception.hpp>

#include <algorithm>
#include <stdexcept>

namespace batfill::simulator {
namespace {

namespace sg4 = simgrid::s4u;

// An actor that runs one SimGrid activity and reports its end. SimGrid zeroes every new actor's
// stack, and the stand-in's 8 MiB (the engine's setting, which its own actor needs) made each
// machine switch of an idle power-off run cost milliseconds: these actors need a small one.
sg4::ActorPtr activity_actor(const std::string& name, sg4::Host* host) {
  constexpr unsigned kStackBytes = 64 * 1024;  // below malloc's mmap threshold
  return sg4::Actor::init(name, host)->set_stacksize(kStackBytes);
}

// Batsim's profile `ret`: a non-zero return code ends the job COMPLETED_FAILED.
FinalState state_on_normal_end(const workload::Profile& profile) {
  return profile.return_code == 0 ? FinalState::kCompletedSuccessfully
                                  : FinalState::kCompletedFailed;
}

// Flops per host and bytes per host pair (row = sender) of a parallel profile on n hosts.
void task_amounts(const workload::Profile& profile, std::size_t n, std::vector<double>& flops,
                  std::vector<double>& bytes) {
  if (profile.type == workload::Profile::Type::kParallel) {
    flops = profile.cpu_per_host;
    bytes = profile.com_matrix;
    return;
  }
  flops.assign(n, profile.cpu);
  bytes.assign(n * n, 0.0);
  for (std::size_t from = 0; from < n; ++from) {
    for (std::size_t to = 0; to < n; ++to) {
      if (from != to) bytes[from * n + to] = profile.com;
    }
  }
}

}  // namespace

JobExecutor::JobExecutor(const std::vector<sg4::Host*>& compute_hosts)
    : compute_hosts_(compute_hosts) {}

void JobExecutor::start(std::size_t slot, const std::string& name, const Job& job,
                        const workload::Profile& profile, const MachineSet& machines, Time now) {
  if (profile.type != workload::Profile::Type::kDelay) {
    // SimGrid's clock lags while only delay jobs run (wait_until): a task starts at `now`.
    if (sg4::Engine::get_clock() < to_seconds(now)) sg4::this_actor::sleep_until(to_seconds(now));
    start_parallel_task(slot, name, job, profile, machines);
    return;
  }
  // Batsim's rule for delay jobs: a delay that reaches the walltime is cut there and reported
  // as COMPLETED_WALLTIME_REACHED.
  const Time limit = job.time_limit;
  const bool cut = job.has_time_limit() && profile.delay >= limit;
  const Time duration = cut ? limit : profile.delay;
  // Both are within kMaxTime, so the sum cannot overflow; past kMaxTime it is no valid time
  // (docs/semantics.md#time): a clear stop rather than a clock that wraps.
  if (now + duration > kMaxTime) {
    throw std::runtime_error("job '" + name + "' started at " + format_seconds(now) + " s for " +
                             format_seconds(duration) +
                             " s would end beyond batfill's time range (4.25e31 s)");
  }
  const std::uint64_t run = ++delay_runs_started_;
  delay_completions_.push(
      {{now + duration, slot,
        cut ? FinalState::kCompletedWalltimeReached : state_on_normal_end(profile)},
       run});
  delay_runs_[slot] = {now, profile.delay, run};
}

double JobExecutor::kill(std::size_t slot, Time now) {
  if (const auto task = parallel_tasks_.find(slot); task != parallel_tasks_.end()) {
    const double progress = 1.0 - task->second->get_remaining_ratio();
    task->second->cancel();
    parallel_tasks_.erase(task);
    --parallel_running_;
    return progress;
  }
  const auto run = delay_runs_.find(slot);
  if (run == delay_runs_.end()) throw std::logic_error("kill of a job that is not running");
  const DelayRun delay = run->second;
  delay_runs_.erase(run);
  drop_killed_delays();
  if (delay.delay <= 0) return 1.0;
  return static_cast<double>(now - delay.start) / static_cast<double>(delay.delay);
}

void JobExecutor::drop_killed_delays() {
  while (!delay_completions_.empty()) {
    const DelayEnd& top = delay_completions_.top();
    const auto run = delay_runs_.find(top.completion.slot);
    if (run != delay_runs_.end() && run->second.run == top.run) return;
    delay_completions_.pop();
  }
}

void JobExecutor::start_parallel_task(std::size_t slot, const std::string& name, const Job& job,
                                      const workload::Profile& profile,
                                      const MachineSet& machines) {
  std::vector<sg4::Host*> hosts;
  for_each_id(machines,
              [&](int id) { hosts.push_back(compute_hosts_[static_cast<std::size_t>(id)]); });
  std::vector<double> flops, bytes;
  task_amounts(profile, hosts.size(), flops, bytes);
  const double walltime = job.has_time_limit() ? to_seconds(job.time_limit) : -1.0;
  const FinalState normal_end = state_on_normal_end(profile);
  ++parallel_running_;
  sg4::ExecPtr task = sg4::this_actor::exec_init(hosts, flops, bytes);
  parallel_tasks_[slot] = task;
  activity_actor("job " + name, hosts.front())
      ->start([this, slot, task, walltime, normal_end] {
        task->start();
        FinalState state = normal_end;
        try {
          task->wait_for(walltime);  // a negative timeout waits for the end
        } catch (const simgrid::TimeoutException&) {
          task->cancel();
          state = FinalState::kCompletedWalltimeReached;
        } catch (const simgrid::CancelException&) {
          return;  // killed: kill() has accounted for it
        }
        // Killed while this actor waited to run: the slot is no longer its.
        const auto running = parallel_tasks_.find(slot);
        if (running == parallel_tasks_.end() || running->second != task) return;
        parallel_tasks_.erase(running);
        std::unique_lock<sg4::Mutex> lock(*mutex_);
        parallel_finished_.push_back(
            {from_fractional_seconds(sg4::Engine::get_clock()), slot, state});
        parallel_done_->notify_all();
      });
}

void JobExecutor::start_switch(int machine, int virtual_pstate, int target) {
  sg4::Host* host = compute_hosts_[static_cast<std::size_t>(machine)];
  ++parallel_running_;
  activity_actor("switch " + std::to_string(machine), host)
      ->start([this, host, machine, virtual_pstate, target] {
        host->set_pstate(static_cast<unsigned long>(virtual_pstate));
        sg4::this_actor::execute(1);
        host->set_pstate(static_cast<unsigned long>(target));
        std::unique_lock<sg4::Mutex> lock(*mutex_);
        switches_finished_.push_back(
            {from_fractional_seconds(sg4::Engine::get_clock()), machine, target});
        parallel_done_->notify_all();
      });
}

void JobExecutor::take_switch_ends(Time now, std::vector<SwitchEnd>& ended) {
  for (const SwitchEnd& end : switches_finished_) {
    ended.push_back({std::min(end.time, now), end.machine, end.pstate});
  }
  parallel_running_ -= static_cast<int>(switches_finished_.size());
  switches_finished_.clear();
}

Time JobExecutor::next_delay_end() {
  drop_killed_delays();
  return delay_completions_.empty() ? kNever : delay_completions_.top().completion.time;
}

Time JobExecutor::wait_until(Time next, Time last_now) {
  // SimGrid actors run one at a time and only switch inside SimGrid calls, so the completion
  // list needs the mutex only around the wait on the condition variable; locking is a simcall,
  // too costly for every instant of a delay-only trace.
  if (parallel_running_ == 0) {
    // Nothing in SimGrid can happen before the next instant: delay jobs are timed here, so the
    // engine is not woken for them: a SimGrid sleep per instant was a fifth of a delay-only
    // replay. Its clock catches up when a parallel task starts.
    return std::max(last_now, next);
  }
  std::unique_lock<sg4::Mutex> lock(*mutex_);
  while (parallel_finished_.empty() && switches_finished_.empty()) {
    if (next == kNever) {
      parallel_done_->wait(lock);
    } else if (parallel_done_->wait_until(lock, to_seconds(next)) == std::cv_status::timeout) {
      break;
    }
  }
  if (parallel_finished_.empty() && switches_finished_.empty()) return std::max(last_now, next);
  // SimGrid's clock is a double; rounding to the microsecond may land a hair before an
  // integral event already processed, so time never goes backwards here.
  return std::max(last_now, from_fractional_seconds(sg4::Engine::get_clock()));
}

void JobExecutor::take_completions(Time now, std::vector<Completion>& ended) {
  drop_killed_delays();
  while (!delay_completions_.empty() && delay_completions_.top().completion.time <= now) {
    ended.push_back(delay_completions_.top().completion);
    delay_runs_.erase(delay_completions_.top().completion.slot);
    delay_completions_.pop();
    drop_killed_delays();
  }
  // Completions are reported at the instant being handled at the latest.
  for (const Completion& completion : parallel_finished_) {
    ended.push_back({std::min(completion.time, now), completion.slot, completion.state});
  }
  parallel_running_ -= static_cast<int>(parallel_finished_.size());
  parallel_finished_.clear();
}

}  // namespace batfill::simulator
