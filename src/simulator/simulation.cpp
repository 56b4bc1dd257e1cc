#include "batfill/simulator/simulation.hpp"

#include "platform.hpp"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace batfill::simulator {
namespace {

namespace sg4 = simgrid::s4u;
using Clock = std::chrono::steady_clock;

const char* const kWorkloadName = "w0";

// Batsim's profile `ret`: a non-zero return code ends the job COMPLETED_FAILED.
FinalState state_on_normal_end(const workload::Profile& profile) {
  return profile.return_code == 0 ? FinalState::kCompletedSuccessfully
                                  : FinalState::kCompletedFailed;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// ---- The Batsim stand-in --------------------------------------------------------------------

class BatsimStandIn {
 public:
  BatsimStandIn(const workload::Workload& workload, protocol::DecisionProcess& decision_process,
                Platform platform, const SimulationOptions& options)
      : workload_(workload),
        decision_process_(decision_process),
        platform_(std::move(platform)),
        options_(options),
        busy_(platform_.compute_hosts.size(), false),
        mutex_(sg4::Mutex::create()),
        parallel_done_(sg4::ConditionVariable::create()) {
    jobs_.reserve(workload.jobs.size());
    // Each job's profile is resolved once, through a hash of the names: looking names up in the
    // workload's std::map at every submission, start and completion showed up in profiles of
    // large traces.
    std::unordered_map<std::string_view, const workload::Profile*> profiles;
    profiles.reserve(workload.profiles.size());
    for (const auto& [name, profile] : workload.profiles) profiles.emplace(name, &profile);
    for (const workload::WorkloadJob& source : workload.jobs) {
      SimJob job;
      job.source = &source;
      const auto profile = profiles.find(source.profile);
      if (profile != profiles.end()) job.profile = profile->second;
      job.batsim_id = std::string(kWorkloadName) + "!" + source.job.id;
      job.record.workload_name = kWorkloadName;
      job.record.job_name = source.job.id;
      job.record.profile = source.profile;
      job.record.submit_time = source.job.submit_time;
      job.record.requested_nodes = source.job.nodes;
      job.record.requested_time = source.job.time_limit;
      jobs_.push_back(std::move(job));
    }
    reject_duplicate_ids();
  }

  // Decisions name jobs by id, so a repeated id is rejected (the readers already rename them: only
  // workloads built otherwise get here).
  void reject_duplicate_ids() {
    std::unordered_set<std::string_view> ids;
    ids.reserve(jobs_.size());
    for (SimJob& job : jobs_) {
      if (!ids.insert(job.batsim_id).second) {
        job.record.reject_reason =
            "duplicate job id '" + job.source->job.id + "' in " + workload_.path;
      }
    }
  }

  // Body of the stand-in's actor.
  void run() {
    start_wall_ = Clock::now();
    begin_simulation();
    while (ended_ < jobs_.size() || !wake_ups_.empty()) {
      const Time now = wait_for_next_instant();
      const protocol::Message& request = collect_events(now);
      if (request.events.empty()) continue;
      if (options_.batching == EventBatching::kPerEvent) {
        exchange_one_by_one(request);
      } else {
        apply_reply(exchange(request), now);
      }
      show_progress(false);
    }
    end_simulation();
    show_progress(true);
  }

  // Moves the job records out: call once, after run().
  SimulationResult result() {
    SimulationResult result;
    result.jobs.reserve(output_order_.size());
    for (std::size_t index : output_order_) result.jobs.push_back(std::move(jobs_[index].record));
    result.machine_count = static_cast<int>(platform_.compute_hosts.size());
    result.scheduling_seconds = scheduling_seconds_;
    return result;
  }

 private:
  struct SimJob {
    const workload::WorkloadJob* source = nullptr;
    const workload::Profile* profile = nullptr;  // null when the job names an unknown profile
    std::string batsim_id;
    JobRecord record;
    enum class Stage { kNotSubmitted, kWaiting, kRunning, kEnded } stage = Stage::kNotSubmitted;
    std::uint64_t start_order = 0;  // how many jobs started before this one
  };

  struct Completion {
    Time time;
    std::size_t job;
    FinalState state;
    bool operator>(const Completion& other) const { return time > other.time; }
  };

  protocol::Message exchange(const protocol::Message& request) {
    const Clock::time_point start = Clock::now();
    protocol::Message reply = decision_process_.exchange(request);
    scheduling_seconds_ += seconds_since(start);
    return reply;
  }

  void begin_simulation() {
    protocol::SimulationBegins begins;
    begins.nb_compute_resources = static_cast<int>(platform_.compute_hosts.size());
    for (std::size_t id = 0; id < platform_.compute_hosts.size(); ++id) {
      protocol::ComputeResource resource;
      resource.id = static_cast<int>(id);
      resource.name = platform_.compute_hosts[id]->get_name();
      resource.properties["role"] = "";
      begins.compute_resources.push_back(std::move(resource));
    }
    begins.sched_config = options_.sched_config;
    begins.workloads[kWorkloadName] = workload_.path;
    protocol::Message request;
    request.events.push_back({0, std::move(begins)});
    apply_reply(exchange(request), 0);
  }

  void end_simulation() {
    protocol::Message request;
    request.now = last_now_;
    request.events.push_back({last_now_, protocol::SimulationEnds{}});
    const protocol::Message reply = exchange(request);
    if (!reply.events.empty()) {
      throw std::runtime_error("the decision process answered SIMULATION_ENDS with " +
                               protocol::event_type_name(reply.events.front().data) +
                               "; Batsim requires an empty reply");
    }
  }

  Time next_timed_event() const {
    Time next = kNever;
    if (next_submission_ < jobs_.size()) next = jobs_[next_submission_].record.submit_time;
    if (!delay_completions_.empty()) next = std::min(next, delay_completions_.top().time);
    if (!wake_ups_.empty()) next = std::min(next, *wake_ups_.begin());
    return next;
  }

  // Sleeps in simulated time until the next submission, delay-job end or wake-up, or until a
  // parallel job ends, whichever comes first.
  Time wait_for_next_instant() {
    const Time next = next_timed_event();
    // SimGrid actors run one at a time and only switch inside SimGrid calls, so the shared
    // completion list needs the mutex only around the wait on the condition variable; locking
    // is a simcall, too costly for every instant of a delay-only trace.
    if (parallel_running_ == 0) {
      if (next == kNever) throw_deadlock();
      if (next > last_now_) sg4::this_actor::sleep_until(to_seconds(next));
      return last_now_ = std::max(last_now_, next);
    }
    std::unique_lock<sg4::Mutex> lock(*mutex_);
    while (parallel_finished_.empty()) {
      if (next == kNever) {
        parallel_done_->wait(lock);
      } else if (parallel_done_->wait_until(lock, to_seconds(next)) == std::cv_status::timeout) {
        break;
      }
    }
    if (parallel_finished_.empty()) return last_now_ = std::max(last_now_, next);
    // SimGrid's clock is a double; rounding to the microsecond may land a hair before an
    // integral event already processed, so time never goes backwards here.
    return last_now_ = std::max(last_now_, from_fractional_seconds(sg4::Engine::get_clock()));
  }

  [[noreturn]] void throw_deadlock() const {
    std::string example;
    std::size_t waiting = 0;
    for (const SimJob& job : jobs_) {
      if (job.stage == SimJob::Stage::kWaiting) {
        if (waiting++ == 0) example = job.batsim_id;
      }
    }
    throw std::runtime_error("the decision process left " + std::to_string(waiting) +
                             " job(s) waiting (first: " + example +
                             ") with nothing running and no wake-up pending; a real Batsim would "
                             "deadlock here");
  }

  // One instant's events, in Batsim's order: completions, then submissions, then wake-ups.
  // The message and the completion list are members reused from instant to instant: growing
  // fresh vectors of events (a large variant) at every instant showed up in profiles.
  const protocol::Message& collect_events(Time now) {
    protocol::Message& request = request_;
    request.now = now;
    request.events.clear();
    std::vector<Completion>& ended = ended_now_;
    ended.clear();
    while (!delay_completions_.empty() && delay_completions_.top().time <= now) {
      ended.push_back(delay_completions_.top());
      delay_completions_.pop();
    }
    for (const Completion& completion : parallel_finished_) {
      ended.push_back({std::min(completion.time, now), completion.job, completion.state});
    }
    parallel_running_ -= static_cast<int>(parallel_finished_.size());
    parallel_finished_.clear();
    std::sort(ended.begin(), ended.end(), [this](const Completion& a, const Completion& b) {
      if (a.time != b.time) return a.time < b.time;
      return job_id_less(jobs_[a.job].batsim_id, jobs_[b.job].batsim_id);
    });
    for (const Completion& completion : ended) {
      SimJob& job = jobs_[completion.job];
      job.record.finish_time = completion.time;
      job.record.state = completion.state;
      mark_busy(job.record.machines, false);
      finish(completion.job);
      protocol::JobCompleted event;
      event.job_id = job.batsim_id;
      event.job_state = to_string(completion.state);
      // Batsim's return codes: 0 on success, the profile's `ret` on failure, -1 at the walltime.
      event.return_code = completion.state == FinalState::kCompletedWalltimeReached
                              ? -1
                              : job.profile->return_code;
      event.alloc = job.record.machines;
      request.events.push_back({completion.time, std::move(event)});
    }

    const bool submissions_left = next_submission_ < jobs_.size();
    while (next_submission_ < jobs_.size() && jobs_[next_submission_].record.submit_time <= now) {
      submit(next_submission_++, request);
    }
    if (submissions_left && next_submission_ == jobs_.size()) {
      request.events.push_back({now, protocol::BatsimNotify{"no_more_static_job_to_submit", {}}});
    }
    while (!wake_ups_.empty() && *wake_ups_.begin() <= now) {
      request.events.push_back({*wake_ups_.begin(), protocol::RequestedCall{}});
      wake_ups_.erase(wake_ups_.begin());
    }
    // Already in Batsim's non-decreasing timestamp order: submissions and wake-ups are handled
    // exactly at their time (`now`), completions at or before it, and they come first.
    return request;
  }

  // EventBatching::kPerEvent, pyss's event handling: each event triggers its own scheduling
  // pass, submissions first, then terminations in the order the jobs started. A job that reached
  // its planned end is already free in pyss's availability profile before its termination is
  // handled, so those completions all join the instant's first request, and their own passes
  // later find nothing new to do (a pass on an unchanged state starts nothing).
  void exchange_one_by_one(const protocol::Message& instant) {
    struct Trigger {
      const protocol::Event* event;
      bool at_limit;
    };
    std::vector<Trigger> triggers;
    std::vector<std::pair<std::uint64_t, Trigger>> terminations;
    std::size_t next = 0;  // collect_events() emits completions in the order of ended_now_
    for (const protocol::Event& event : instant.events) {
      if (!std::holds_alternative<protocol::JobCompleted>(event.data)) {
        triggers.push_back({&event, false});
        continue;
      }
      const Completion& completion = ended_now_[next++];
      terminations.push_back(
          {jobs_[completion.job].start_order,
           {&event, completion.state == FinalState::kCompletedWalltimeReached}});
    }
    std::sort(terminations.begin(), terminations.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& termination : terminations) triggers.push_back(termination.second);

    protocol::Message request;
    request.now = instant.now;
    for (const Trigger& trigger : triggers) {
      if (trigger.at_limit) request.events.push_back(*trigger.event);
    }
    bool first = true;
    for (const Trigger& trigger : triggers) {
      if (trigger.at_limit && !first) continue;
      if (!trigger.at_limit) request.events.push_back(*trigger.event);
      apply_reply(exchange(request), instant.now);
      request.events.clear();
      first = false;
    }
  }

  void submit(std::size_t index, protocol::Message& request) {
    SimJob& job = jobs_[index];
    const workload::WorkloadJob& source = *job.source;
    // Records the readers could not turn into runnable jobs never reach the decision process:
    // Batsim would refuse the whole workload; batfill reports them as rejected, with the reason.
    std::string invalid = job.record.reject_reason.empty() ? source.invalid_reason
                                                           : job.record.reject_reason;
    if (invalid.empty() && job.profile == nullptr) {
      invalid = "job '" + source.job.id + "' uses unknown profile '" + source.profile + "'";
    }
    if (!invalid.empty()) {
      job.record.state = FinalState::kRejected;
      job.record.reject_reason = invalid;
      finish(index);
      return;
    }
    job.stage = SimJob::Stage::kWaiting;
    waiting_.emplace(job.batsim_id, index);
    protocol::JobSubmitted event;
    event.job.id = job.batsim_id;
    event.job.subtime = source.job.submit_time;
    event.job.res = source.job.nodes;
    event.job.profile = source.profile;
    event.job.walltime = source.job.time_limit;
    event.job.extra_json = source.extra_json;
    request.events.push_back({source.job.submit_time, std::move(event)});
  }

  void finish(std::size_t index) {
    jobs_[index].stage = SimJob::Stage::kEnded;
    output_order_.push_back(index);
    ++ended_;
  }

  [[noreturn]] void reject_reply(const std::string& what) const {
    throw std::runtime_error("invalid decision at t=" + format_seconds(last_now_) + ": " + what);
  }

  // Position in jobs_ of the waiting job a decision names; the job leaves the waiting jobs.
  std::size_t take_waiting_job(const std::string& id, const char* decision) {
    const auto it = waiting_.find(id);
    if (it == waiting_.end()) {
      const bool known = std::any_of(jobs_.begin(), jobs_.end(),
                                     [&](const SimJob& job) { return job.batsim_id == id; });
      if (!known) reject_reply(std::string(decision) + " of unknown job '" + id + "'");
      reject_reply(std::string(decision) + " of job '" + id + "', which is not waiting");
    }
    const std::size_t index = it->second;
    waiting_.erase(it);
    return index;
  }

  // Applies a reply with Batsim's checks: whatever would make Batsim abort is an error here too.
  // Takes the reply by value: allocations move into the job records.
  void apply_reply(protocol::Message reply, Time now) {
    for (protocol::Event& event : reply.events) {
      if (event.timestamp > reply.now) {
        reject_reply("event timestamp " + format_seconds(event.timestamp) +
                     " is after the reply's now " + format_seconds(reply.now));
      }
      if (auto* execute = std::get_if<protocol::ExecuteJob>(&event.data)) {
        start(take_waiting_job(execute->job_id, "EXECUTE_JOB"), std::move(execute->alloc), now);
      } else if (const auto* reject = std::get_if<protocol::RejectJob>(&event.data)) {
        const std::size_t index = take_waiting_job(reject->job_id, "REJECT_JOB");
        SimJob& job = jobs_[index];
        job.record.state = FinalState::kRejected;
        job.record.reject_reason =
            reject->reason.empty() ? "rejected by the decision process" : reject->reason;
        finish(index);
      } else if (const auto* call = std::get_if<protocol::CallMeLater>(&event.data)) {
        if (call->at <= now) {
          reject_reply("CALL_ME_LATER at " + format_seconds(call->at) + " is not after now");
        }
        wake_ups_.insert(call->at);
      } else if (!std::holds_alternative<protocol::EstimateWaitingTimeAnswer>(event.data)) {
        reject_reply("unexpected " + protocol::event_type_name(event.data) + " in a reply");
      }
    }
  }

  // Busy machines are flags by id, not a MachineSet: set operations on interval trees at every
  // start and completion cost more than visiting the ids of the job. Ids are checked in range.
  MachineSet busy_among(const MachineSet& machines) const {
    MachineSet busy;
    for (const auto& interval : machines) {
      for (int id = boost::icl::first(interval); id <= boost::icl::last(interval); ++id) {
        if (busy_[static_cast<std::size_t>(id)]) busy += id;
      }
    }
    return busy;
  }

  void mark_busy(const MachineSet& machines, bool busy) {
    for (const auto& interval : machines) {
      const auto first = busy_.begin() + boost::icl::first(interval);
      const auto last = busy_.begin() + boost::icl::last(interval);
      std::fill(first, last + 1, busy);
    }
  }

  void start(std::size_t index, MachineSet alloc, Time now) {
    SimJob& job = jobs_[index];
    const int size = machine_count(alloc);
    if (size != job.record.requested_nodes) {
      reject_reply("EXECUTE_JOB of '" + job.batsim_id + "' on " + std::to_string(size) +
                   " machines, but it requests " + std::to_string(job.record.requested_nodes));
    }
    if (!alloc.empty() && (boost::icl::first(alloc) < 0 ||
                           boost::icl::last(alloc) >= static_cast<int>(platform_.compute_hosts.size()))) {
      reject_reply("EXECUTE_JOB of '" + job.batsim_id + "' on machines '" + to_string(alloc) +
                   "' outside 0-" + std::to_string(platform_.compute_hosts.size() - 1));
    }
    const MachineSet already_busy = busy_among(alloc);
    if (!already_busy.empty()) {
      reject_reply("EXECUTE_JOB of '" + job.batsim_id + "' on busy machines '" +
                   to_string(already_busy) + "'");
    }
    mark_busy(alloc, true);
    job.stage = SimJob::Stage::kRunning;
    job.record.start_time = now;
    job.start_order = started_count_++;
    job.record.machines = std::move(alloc);
    const MachineSet& machines = job.record.machines;
    const workload::Profile& profile = *job.profile;
    if (profile.type == workload::Profile::Type::kDelay) {
      // Batsim's rule for delay jobs: a delay that reaches the walltime is cut there and reported
      // as COMPLETED_WALLTIME_REACHED.
      const Time limit = job.source->job.time_limit;
      const bool cut = job.source->job.has_time_limit() && profile.delay >= limit;
      delay_completions_.push({now + (cut ? limit : profile.delay), index,
                               cut ? FinalState::kCompletedWalltimeReached
                                   : state_on_normal_end(profile)});
      return;
    }
    start_parallel_task(index, profile, machines);
  }

  // Parallel profiles run as SimGrid parallel tasks on the allocated hosts, so their duration is
  // SimGrid's model of the platform, stopped at the walltime like Batsim does.
  void start_parallel_task(std::size_t index, const workload::Profile& profile,
                           const MachineSet& alloc) {
    std::vector<sg4::Host*> hosts;
    for (const auto& interval : alloc) {
      for (int id = boost::icl::first(interval); id <= boost::icl::last(interval); ++id) {
        hosts.push_back(platform_.compute_hosts[static_cast<std::size_t>(id)]);
      }
    }
    const std::size_t n = hosts.size();
    std::vector<double> flops = profile.cpu_per_host;
    std::vector<double> bytes = profile.com_matrix;
    if (profile.type == workload::Profile::Type::kParallelHomogeneous) {
      flops.assign(n, profile.cpu);
      bytes.assign(n * n, 0.0);
      for (std::size_t from = 0; from < n; ++from) {
        for (std::size_t to = 0; to < n; ++to) {
          if (from != to) bytes[from * n + to] = profile.com;
        }
      }
    }
    const Job& job = jobs_[index].source->job;
    const double walltime = job.has_time_limit() ? to_seconds(job.time_limit) : -1.0;
    ++parallel_running_;
    sg4::Actor::create("job " + jobs_[index].batsim_id, hosts.front(),
                       [this, index, hosts, flops, bytes, walltime, profile] {
                         sg4::ExecPtr task = sg4::this_actor::exec_init(hosts, flops, bytes);
                         task->start();
                         FinalState state = state_on_normal_end(profile);
                         try {
                           task->wait_for(walltime);
                         } catch (const simgrid::TimeoutException&) {
                           task->cancel();
                           state = FinalState::kCompletedWalltimeReached;
                         }
                         std::unique_lock<sg4::Mutex> lock(*mutex_);
                         parallel_finished_.push_back(
                             {from_fractional_seconds(sg4::Engine::get_clock()), index, state});
                         parallel_done_->notify_all();
                       });
  }

  void show_progress(bool done) {
    if (!options_.show_progress) return;
    if (!done && (++progress_tick_ & 1023) != 0) return;
    const double elapsed = seconds_since(start_wall_);
    if (!done && (elapsed < 1.0 || elapsed - last_progress_ < 0.25)) return;
    if (done && last_progress_ == 0) return;  // short runs print no bar at all
    last_progress_ = elapsed;
    const double fraction = jobs_.empty() ? 1.0 : static_cast<double>(ended_) / static_cast<double>(jobs_.size());
    const int width = 40;
    const int filled = static_cast<int>(fraction * width);
    std::fprintf(stderr, "\r[%s%s] %5.1f%% %zu/%zu jobs, t=%s s%s",
                 std::string(static_cast<std::size_t>(filled), '=').c_str(),
                 std::string(static_cast<std::size_t>(width - filled), ' ').c_str(),
                 100.0 * fraction, ended_, jobs_.size(), format_seconds(last_now_).c_str(),
                 done ? "\n" : "");
  }

  const workload::Workload& workload_;
  protocol::DecisionProcess& decision_process_;
  Platform platform_;
  SimulationOptions options_;
  std::vector<SimJob> jobs_;
  // Waiting jobs by id (views of their batsim_id; jobs_ never reallocates after construction):
  // only these can be named by a decision, and a small table stays in cache where an index of
  // the whole trace did not.
  std::unordered_map<std::string_view, std::size_t> waiting_;
  std::uint64_t started_count_ = 0;
  std::vector<std::size_t> output_order_;
  std::size_t ended_ = 0;
  std::size_t next_submission_ = 0;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> delay_completions_;
  std::multiset<Time> wake_ups_;
  std::vector<bool> busy_;  // by machine id
  Time last_now_ = 0;

  sg4::MutexPtr mutex_;
  sg4::ConditionVariablePtr parallel_done_;
  int parallel_running_ = 0;
  std::vector<Completion> parallel_finished_;

  protocol::Message request_;           // the instant's request, see collect_events()
  std::vector<Completion> ended_now_;   // the instant's completions, see collect_events()

  double scheduling_seconds_ = 0;
  Clock::time_point start_wall_;
  double last_progress_ = 0;
  unsigned progress_tick_ = 0;
};

}  // namespace

EventBatching parse_event_batching(const std::string& name) {
  if (name == "instant") return EventBatching::kInstant;
  if (name == "per-event") return EventBatching::kPerEvent;
  throw std::invalid_argument("unknown event batching '" + name + "' (valid: instant, per-event)");
}

SimulationResult run_simulation(const workload::Workload& workload,
                                protocol::DecisionProcess& decision_process,
                                const SimulationOptions& options) {
  const Clock::time_point start = Clock::now();
  // SimGrid reads its configuration from argv. ptask_L07 is the host model that runs parallel
  // tasks (Batsim uses it too); warnings only, so batfill's own output stays readable.
  std::vector<std::string> arguments = {"batfill", "--log=root.thresh:warning",
                                        "--cfg=host/model:ptask_L07"};
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  int argc = static_cast<int>(argv.size());
  sg4::Engine engine(&argc, argv.data());

  Platform platform = load_platform(engine, workload, options);
  sg4::Host* server_host = platform.server_host;
  BatsimStandIn stand_in(workload, decision_process, std::move(platform), options);
  std::exception_ptr failure;
  sg4::Actor::create("batsim", server_host, [&] {
    try {
      stand_in.run();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  engine.run();
  if (failure) std::rethrow_exception(failure);
  SimulationResult result = stand_in.result();
  result.wall_seconds = seconds_since(start);
  return result;
}

}  // namespace batfill::simulator
