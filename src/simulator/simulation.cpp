#include "batfill/simulator/simulation.hpp"

#include "batfill/common/foreign_call.hpp"
#include "batsim_events.hpp"
#include "external_events.hpp"
#include "job_executor.hpp"
#include "machine_ledger.hpp"
#include "platform.hpp"
#include "power_model.hpp"
#include "progress_bar.hpp"
#include "reply_checker.hpp"
#include "simulated_job.hpp"
#include "wall_clock.hpp"

#include <simgrid/plugins/energy.h>
#include <xbt/log.h>
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace batfill::simulator {
namespace {

namespace sg4 = simgrid::s4u;

const char* const kWorkloadName = "w0";

// The stop signal received (SIGINT, SIGTERM), 0 while none: read by the stand-in at each
// instant. SimGrid's own SIGINT handler would exit without a word of where the run was.
volatile std::sig_atomic_t stop_signal = 0;

extern "C" void on_stop_signal(int signal) {
  stop_signal = signal;
  std::signal(signal, SIG_DFL);  // a second one kills at once (a scheduler that never replies)
}

void watch_stop_signals() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}

// Why the k-th REJECT_JOB of `reply` was decided: batfill's own scheduler says so beside the
// events, an external scheduler's REJECT_JOB carries no reason on the wire
// (docs/protocol.md#reject_job).
Rejection rejection_of(protocol::Message& reply, std::size_t k) {
  std::vector<Rejection>& reasons = reply.in_process.rejection_reasons;
  if (k < reasons.size() && !reasons[k].empty()) return std::move(reasons[k]);
  return Rejection("", "", "rejected by the decision process");
}

// Batsim's side of the protocol: submits the jobs, applies the decisions, reports the ends.
class BatsimStandIn {
 public:
  BatsimStandIn(workload::JobStream& stream, protocol::DecisionProcess& decision_process,
                Platform platform, const SimulationOptions& options, const JobEnded& job_ended)
      : stream_(stream),
        decision_process_(decision_process),
        platform_(std::move(platform)),
        options_(options),
        job_ended_(job_ended),
        machines_in_use_(static_cast<int>(platform_.compute_hosts.size())),
        checker_(machines_in_use_),
        executor_(platform_.compute_hosts),
        next_job_(stream.next()) {
    if (options_.energy) power_.emplace(platform_.compute_hosts, options_.energy_traces);
    if (!options_.events_file.empty()) read_events();
  }

  // Body of the stand-in's actor: from instant to instant until every job has ended.
  void run() {
    ProgressBar progress(options_.show_progress, stream_.record_count());
    begin_simulation();
    while (more_to_happen()) {
      if (stop_signal != 0) throw_interrupted();
      const Time now = wait_for_next_instant();
      if (apply_deferred_decisions(now)) take_immediate_events();
      // The decision process was still deciding (its reply's `now` was later): Batsim kept what
      // happened meanwhile for the request it sends once the process is ready, before what
      // happens at that instant, which its message latencies put a little later.
      if (now >= scheduler_ready_at_) send_request(now);
      collect_events(now);
      if (now >= scheduler_ready_at_) send_request(now);
      progress.update(ended_, last_now_);
    }
    end_simulation();
    progress.finish(ended_, last_now_);
  }

  // Sends the request built so far, if it says anything, and applies the reply.
  void send_request(Time now) {
    if (request_.events.empty() && request_.in_process.resize_requests.empty()) return;
    request_.now = now;
    protocol::Message reply = exchange(request_);
    request_.events.clear();
    request_.in_process.resize_requests.clear();
    ended_untold_.clear();  // Batsim forgets a job once its end is told
    apply_reply(std::move(reply));
  }

  // Batsim ends the simulation only once every job has ended, every wake-up come, every event
  // of the events file been sent, every decision of a reply timestamped later been applied
  // and, with dynamic jobs, the decision process has said it registers no more
  // (docs/protocol.md#dynamic-jobs-in-the-stand-in).
  bool more_to_happen() const {
    return next_job_ != nullptr || in_flight_ > 0 || !wake_ups_.empty() || switching() ||
           !immediate_events_.empty() || !deferred_.empty() || !request_.events.empty() ||
           external_events_left() || awaiting_registrations();
  }

  bool external_events_left() const {
    return !options_.events_file.empty() && !no_more_external_events_sent_;
  }
  bool awaiting_registrations() const { return options_.dynamic_jobs && !registration_finished_; }

  // Batsim ends the simulation only once every switch has ended and been told (and the
  // notification that held back for a message of its own, sent).
  bool switching() const {
    return power_ && (executor_.parallel_running() || !power_events_.empty());
  }

  [[noreturn]] void throw_interrupted() const {
    const int signal = stop_signal;
    throw Interrupted(signal,
                      std::string("interrupted by ") + (signal == SIGINT ? "SIGINT" : "SIGTERM") +
                          " at simulated time " + format_seconds(last_now_) + " s, with " +
                          std::to_string(ended_) + " of " + std::to_string(stream_.record_count()) +
                          " jobs ended; no output written");
  }

  SimulationResult result() const {
    SimulationResult result;
    result.machine_count = static_cast<int>(platform_.compute_hosts.size());
    result.scheduling_seconds = scheduling_seconds_;
    if (power_) result.energy = power_->figures();
    return result;
  }

 private:
  protocol::Message exchange(const protocol::Message& request) {
    const WallClock::time_point start = WallClock::now();
    protocol::Message reply = decision_process_.exchange(request);
    scheduling_seconds_ += seconds_since(start);
    return reply;
  }

  void begin_simulation() {
    protocol::SimulationBegins begins =
        simulation_begins(platform_, options_.sched_config, kWorkloadName, stream_.workload().path);
    begins.features.dynamic_jobs = options_.dynamic_jobs;
    begins.features.dynamic_jobs_acknowledged = options_.acknowledge_dynamic_jobs;
    begins.features.profile_reuse = options_.profile_reuse;
    begins.features.forward_unknown_events = options_.forward_unknown_events;
    protocol::Message request;
    request.events.push_back({0, std::move(begins)});
    request.in_process.resize_requests_replayed = options_.resize_requests_replayed;
    apply_reply(exchange(request));
  }

  void end_simulation() {
    protocol::Message request;
    request.now = last_now_;
    request.events.push_back({last_now_, protocol::SimulationEnds{}});
    ReplyChecker::check_end_reply(exchange(request));
  }

  // Sleeps in simulated time until the next submission, job end or wake-up.
  Time wait_for_next_instant() {
    Time next = executor_.next_delay_end();
    if (!wake_ups_.empty()) next = std::min(next, *wake_ups_.begin());
    if (!resizes_due_.empty()) next = std::min(next, resizes_due_.begin()->first);
    if (next_job_ != nullptr) next = std::min(next, next_job_->job.submit_time);
    if (!deferred_.empty()) next = std::min(next, deferred_.begin()->first);
    if (scheduler_ready_at_ > last_now_) next = std::min(next, scheduler_ready_at_);
    if (external_events_left()) {
      next = std::min(
          next, next_external_ < external_.size() ? external_[next_external_].time : last_now_);
    }
    if (!power_events_.empty() || !immediate_events_.empty()) next = last_now_;
    if (next == kNever && !executor_.parallel_running()) {
      if (awaiting_registrations() && waiting_.empty()) {
        throw std::runtime_error(
            "the decision process never sent NOTIFY registration_finished, and nothing else is "
            "left to happen; a real Batsim with --enable-dynamic-jobs would deadlock here");
      }
      ReplyChecker::throw_deadlock(jobs_);
    }
    last_now_ = executor_.wait_until(next, last_now_);
    // The energy plugin counts up to SimGrid's clock, which lags while only delay jobs run.
    if (power_ && sg4::Engine::get_clock() < to_seconds(last_now_)) {
      sg4::this_actor::sleep_until(to_seconds(last_now_));
    }
    return last_now_;
  }

  // One instant's events, in Batsim's order: completions, submissions, the answers to the last
  // reply's kills and registrations, then external events and wake-ups; added to those not
  // sent yet. The message and the completion list are members reused from instant to
  // instant, so their capacity is kept and an instant allocates neither.
  void collect_events(Time now) {
    release_ended_slots();
    collect_completions(now);
    collect_power_events(now);
    const bool submissions_left = next_job_ != nullptr;
    const std::size_t first_submission = request_.events.size();
    while (next_job_ != nullptr && next_job_->job.submit_time <= now) {
      submit(take_slot());
      next_job_ = stream_.next();
    }
    // Batsim sends the jobs of one submission time by plain string order of their ids
    // (docs/protocol.md#quirks-of-a-real-batsim-421), and a scheduler such as batsched takes
    // them in message order; batfill's own queues them by numeric id whatever the order.
    std::stable_sort(request_.events.begin() + static_cast<std::ptrdiff_t>(first_submission),
                     request_.events.end(), [](const protocol::Event& a, const protocol::Event& b) {
                       if (a.timestamp != b.timestamp) return a.timestamp < b.timestamp;
                       return std::get<protocol::JobSubmitted>(a.data).job.id <
                              std::get<protocol::JobSubmitted>(b.data).job.id;
                     });
    // The answers to the last reply's kills and registrations: Batsim's latencies put them
    // after the submissions of the same instant.
    take_immediate_events();
    if (submissions_left && next_job_ == nullptr) {
      // With --energy, in a message of its own, as Batsim 4.2.1 sends it: the energy schedulers
      // of batsched decide at each message (docs/protocol.md#the-power-model-of-the-stand-in).
      // Without, where it always was, so that no run changes.
      std::vector<protocol::Event>& events = power_ ? power_events_ : request_.events;
      events.push_back(
          {now, protocol::BatsimNotify{protocol::Notification::kNoMoreStaticJobs, {}, {}, {}}});
    }
    collect_external_events(now);
    make_resize_requests(now);
    while (!wake_ups_.empty() && *wake_ups_.begin() <= now) {
      request_.events.push_back({*wake_ups_.begin(), protocol::RequestedCall{}});
      wake_ups_.erase(wake_ups_.begin());
    }
    // Already in Batsim's non-decreasing timestamp order: submissions and wake-ups are handled
    // exactly at their time (`now`), completions at or before it, and they come first.
  }

  // The answers to the decisions just applied go first in the next request.
  void take_immediate_events() {
    for (protocol::Event& event : immediate_events_) request_.events.push_back(std::move(event));
    immediate_events_.clear();
  }

  void read_events() {
    external_ = read_external_events(options_.events_file, options_.forward_unknown_events);
    const int machines = static_cast<int>(platform_.compute_hosts.size());
    for (const ExternalEvent& event : external_) {
      const MachineSet& named = event.notify.resources;
      if (!named.empty() && (boost::icl::first(named) < 0 || boost::icl::last(named) >= machines)) {
        throw std::runtime_error(event.origin + ": machines " + quoted(to_string(named)) +
                                 " outside the platform's 0-" + std::to_string(machines - 1));
      }
    }
  }

  // The events file's events due by now; machines made unavailable keep their running jobs,
  // as in Batsim, but no job may start on them.
  void collect_external_events(Time now) {
    if (!external_events_left()) return;
    while (next_external_ < external_.size() && external_[next_external_].time <= now) {
      const ExternalEvent& event = external_[next_external_++];
      if (event.notify.kind == protocol::Notification::kMachinesUnavailable) {
        unavailable_ += event.notify.resources;
      } else if (event.notify.kind == protocol::Notification::kMachinesAvailable) {
        unavailable_ -= event.notify.resources;
      }
      request_.events.push_back({event.time, event.notify});
    }
    if (next_external_ < external_.size()) return;
    request_.events.push_back(
        {now, protocol::BatsimNotify{protocol::Notification::kNoMoreExternalEvents, {}, {}, {}}});
    no_more_external_events_sent_ = true;
  }

  // Jobs that ended at the same time are reported by id, like jobs submitted together.
  void collect_completions(Time now) {
    ended_now_.clear();
    executor_.take_completions(now, ended_now_);
    std::sort(ended_now_.begin(), ended_now_.end(),
              [this](const Completion& a, const Completion& b) {
                if (a.time != b.time) return a.time < b.time;
                return job_id_less(jobs_[a.slot].batsim_id, jobs_[b.slot].batsim_id);
              });
    for (const Completion& completion : ended_now_) {
      end_running(completion.slot, completion.time, completion.state, request_.events);
    }
  }

  // The running job in `slot` ends at `time` in `state`; its JOB_COMPLETED goes to `events`.
  void end_running(std::size_t slot, Time time, FinalState state,
                   std::vector<protocol::Event>& events) {
    SimulatedJob& job = jobs_[slot];
    running_.erase(job.batsim_id);
    if (state == FinalState::kCompletedKilled || time < scheduler_ready_at_) {
      ended_untold_.insert(job.batsim_id);
    }
    job.record.finish_time = time;
    job.record.state = state;
    machines_in_use_.release(job.record.machines);
    if (power_) {
      job.record.consumed_energy =
          power_->job_ended(job.record.machines, time) - *job.record.consumed_energy;
    }
    end_resizes(job, time);
    finish(slot);  // before the event, which takes the record's machines
    events.push_back({time, job_completed(job, state)});
  }

  // The ends of switches, in the order they ended, then what the instant's replies asked for:
  // the acknowledgements of power decisions and the answers to energy queries.
  void collect_power_events(Time now) {
    if (!power_) return;
    switch_ends_.clear();
    executor_.take_switch_ends(now, switch_ends_);
    for (const JobExecutor::SwitchEnd& end : switch_ends_) {
      power_->switch_done(end.machine, end.pstate, end.time, power_events_);
    }
    for (protocol::Event& event : power_events_) request_.events.push_back(std::move(event));
    power_events_.clear();
  }

  // A slot of jobs_ for the next job: one freed by an ended job, else a new one.
  std::size_t take_slot() {
    ++in_flight_;
    if (free_slots_.empty()) {
      jobs_.emplace_back();
      return jobs_.size() - 1;
    }
    const std::size_t slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }

  // Submits next_job_ in `index`.
  void submit(std::size_t index) {
    SimulatedJob& job = jobs_[index];
    const workload::WorkloadJob& source = *next_job_;
    fill_simulated_job(job, source, stream_.profile_of(source), kWorkloadName);
    job.submit_order = submitted_count_++;
    // Records the readers could not turn into runnable jobs never reach the decision process:
    // Batsim would refuse the whole workload; batfill reports them as rejected, with the reason.
    Rejection invalid = source.rejection;
    if (invalid.empty() && job.profile == nullptr) {
      invalid = Rejection("", source.job.id, "uses unknown profile '" + source.profile + "'");
    }
    if (!invalid.empty()) {
      job.record.state = FinalState::kRejected;
      job.record.rejection = std::move(invalid);
      finish(index);
      return;
    }
    job.stage = JobStage::kWaiting;
    if (power_) power_->job_submitted();
    waiting_.emplace(job.batsim_id, index);
    request_.events.push_back({source.job.submit_time, job_submitted(job)});
  }

  // The job's record goes out; its slot is freed at the next instant (release_ended_slots),
  // as this instant's messages still name the job.
  void finish(std::size_t index) {
    SimulatedJob& job = jobs_[index];
    job.stage = JobStage::kEnded;
    if (options_.resize_requests_replayed) {
      job.record.resizes_not_made =
          static_cast<int>(job.resize_plan.size() - job.record.resizes.size());
    }
    job_ended_(job.record);
    ++ended_;
    --in_flight_;
    ended_slots_.push_back(index);
  }

  void release_ended_slots() {
    for (const std::size_t index : ended_slots_) {
      jobs_[index].batsim_id.clear();
      jobs_[index].record.machines.clear();
      free_slots_.push_back(index);
    }
    ended_slots_.clear();
  }

  // Position in jobs_ of the waiting job a decision names; the job leaves the waiting jobs.
  std::size_t take_waiting_job(const std::string& id, const char* decision) {
    const auto it = waiting_.find(id);
    if (it == waiting_.end()) checker_.throw_not_waiting(jobs_, id, decision, last_now_);
    const std::size_t index = it->second;
    waiting_.erase(it);
    return index;
  }

  // Takes the reply by value: allocations move into the job records. A decision timestamped
  // after now waits for its time, and so does the next request for the reply's `now`, as Batsim
  // applies them (docs/protocol.md#decisions-timestamped-in-the-future).
  void apply_reply(protocol::Message reply) {
    const Time now = last_now_;
    // A scheduler that reads `now` as a double writes back that double's time, which beyond
    // 2^53 us may lie after `now` (docs/semantics.md#time): that is `now` still.
    const Time now_read_back = std::max(now, from_fractional_seconds(to_seconds(now)));
    std::size_t rejections = 0;
    for (protocol::Event& event : reply.events) {
      checker_.check_timestamp(event, reply.now, now);
      if (event.timestamp > now_read_back) {
        deferred_.emplace(event.timestamp, std::move(event));
        continue;
      }
      Rejection reason = std::holds_alternative<protocol::RejectJob>(event.data)
                             ? rejection_of(reply, rejections++)
                             : Rejection();
      apply_decision(event, std::move(reason), now);
    }
    if (reply.now > now_read_back) scheduler_ready_at_ = std::max(scheduler_ready_at_, reply.now);
    for (protocol::GrantResize& grant : reply.in_process.grants) {
      grant_resize(grant.request_id, std::move(grant.alloc));
    }
  }

  // Whether any was due.
  bool apply_deferred_decisions(Time now) {
    if (deferred_.empty() || deferred_.begin()->first > now) return false;
    while (!deferred_.empty() && deferred_.begin()->first <= now) {
      protocol::Event event = std::move(deferred_.begin()->second);
      deferred_.erase(deferred_.begin());
      apply_decision(event, Rejection("", "", "rejected by the decision process"), now);
    }
    return true;
  }

  void apply_decision(protocol::Event& event, Rejection rejection, Time now) {
    if (auto* execute = std::get_if<protocol::ExecuteJob>(&event.data)) {
      start(take_waiting_job(execute->job_id, protocol::event_type_name<protocol::ExecuteJob>()),
            std::move(execute->alloc));
    } else if (const auto* reject = std::get_if<protocol::RejectJob>(&event.data)) {
      const std::size_t index =
          take_waiting_job(reject->job_id, protocol::event_type_name<protocol::RejectJob>());
      jobs_[index].record.state = FinalState::kRejected;
      jobs_[index].record.rejection = std::move(rejection);
      finish(index);
    } else if (const auto* call = std::get_if<protocol::CallMeLater>(&event.data)) {
      checker_.check_wake_up(call->at, now);
      wake_ups_.insert(call->at);
    } else if (const auto* power = std::get_if<protocol::SetResourceState>(&event.data)) {
      set_resource_state(*power, now);
    } else if (std::holds_alternative<protocol::ConsumedEnergyQuery>(event.data)) {
      if (!power_) checker_.throw_without_energy(event, now);
      power_events_.push_back({now, protocol::ConsumedEnergyAnswer{power_->total_joules()}});
    } else if (const auto* kill = std::get_if<protocol::KillJob>(&event.data)) {
      kill_jobs(*kill, now);
    } else if (const auto* metadata = std::get_if<protocol::SetJobMetadata>(&event.data)) {
      set_metadata(*metadata, now);
    } else if (const auto* profile = std::get_if<protocol::RegisterProfile>(&event.data)) {
      register_profile(*profile, now);
    } else if (const auto* job = std::get_if<protocol::RegisterJob>(&event.data)) {
      register_job(job->job, now);
    } else if (const auto* notify = std::get_if<protocol::BatsimNotify>(&event.data);
               notify != nullptr &&
               (notify->kind == protocol::Notification::kRegistrationFinished ||
                notify->kind == protocol::Notification::kContinueRegistration)) {
      registration_finished_ = notify->kind == protocol::Notification::kRegistrationFinished;
    } else if (!std::holds_alternative<protocol::EstimateWaitingTimeAnswer>(event.data)) {
      checker_.throw_unexpected_event(event, now);
    }
  }

  // KILL_JOB (docs/protocol.md#kill_job-in-the-stand-in): each running job ends at once,
  // COMPLETED_KILLED, and the next request tells its JOB_COMPLETED, then one JOB_KILLED with
  // the progress of each. A job whose end is not told yet is passed over, as Batsim does.
  void kill_jobs(const protocol::KillJob& kill, Time now) {
    protocol::JobKilled killed{kill.job_ids, {}};
    for (const std::string& id : kill.job_ids) {
      if (ended_untold_.count(id) != 0) continue;
      const auto running = running_.find(id);
      if (running == running_.end()) {
        ReplyChecker::refuse(
            now, "KILL_JOB of " + quoted(id) +
                     (waiting_.count(id) != 0 ? ", which is waiting, not running (Batsim kills "
                                                "only running jobs)"
                                              : ", which is no running job (unknown, or already "
                                                "ended and forgotten, as Batsim forgets it)"));
      }
      const std::size_t slot = running->second;
      const double done = executor_.kill(slot, now);
      killed.progress.push_back(
          {id, protocol::JobProgress{jobs_[slot].record.profile, done, std::nullopt, {}}});
      end_running(slot, now, FinalState::kCompletedKilled, immediate_events_);
    }
    immediate_events_.push_back({now, std::move(killed)});
  }

  // Position in jobs_ of the job `id`, submitted and not ended; none for any other id.
  std::optional<std::size_t> job_in_flight(const std::string& id) const {
    if (const auto waiting = waiting_.find(id); waiting != waiting_.end()) return waiting->second;
    if (const auto running = running_.find(id); running != running_.end()) return running->second;
    return std::nullopt;
  }

  void set_metadata(const protocol::SetJobMetadata& decision, Time now) {
    if (decision.metadata.find('"') != std::string::npos) {
      ReplyChecker::refuse(now, "SET_JOB_METADATA of " + quoted(decision.job_id) +
                                    " with a double quote in its metadata (Batsim refuses it)");
    }
    const std::optional<std::size_t> slot = job_in_flight(decision.job_id);
    if (!slot) {
      ReplyChecker::refuse(now, "SET_JOB_METADATA of " + quoted(decision.job_id) +
                                    ", which is no submitted job that has not ended");
    }
    jobs_[*slot].record.metadata = decision.metadata;
  }

  void check_registration(const char* decision, Time now) const {
    if (!options_.dynamic_jobs) {
      ReplyChecker::refuse(now, std::string(decision) +
                                    " without --enable-dynamic-jobs (Batsim refuses dynamic "
                                    "registration unless started with it)");
    }
    if (registration_finished_) {
      ReplyChecker::refuse(
          now, std::string(decision) + " after NOTIFY registration_finished (Batsim refuses it)");
    }
  }

  // A profile of `workload_name`: registered, or the static workload's; null if none.
  const workload::Profile* profile_named(const std::string& workload_name,
                                         const std::string& name) const {
    const auto registered = dynamic_profiles_.find(workload_name + "!" + name);
    if (registered != dynamic_profiles_.end()) return &registered->second;
    if (workload_name != kWorkloadName) return nullptr;
    const auto& profiles = stream_.workload().profiles;
    const auto found = profiles.find(name);
    return found == profiles.end() ? nullptr : &found->second;
  }

  void register_profile(const protocol::RegisterProfile& decision, Time now) {
    check_registration(protocol::event_type_name<protocol::RegisterProfile>(), now);
    const std::string key = decision.workload_name + "!" + decision.profile_name;
    if (profile_named(decision.workload_name, decision.profile_name) != nullptr) {
      ReplyChecker::refuse(
          now, "REGISTER_PROFILE of " + quoted(key) + ", which exists already (Batsim refuses it)");
    }
    try {
      dynamic_profiles_.emplace(
          key, workload::read_batsim_profile(decision.profile_name, decision.profile_json));
    } catch (const std::invalid_argument& e) {
      ReplyChecker::refuse(now, "REGISTER_PROFILE of " + quoted(key) + ": " + e.what());
    }
    dynamic_workloads_.insert(decision.workload_name);
  }

  // REGISTER_JOB: the job is submitted now, into a workload that exists (the static one or one
  // a REGISTER_PROFILE made), with a profile of it.
  void register_job(const protocol::SubmittedJob& registered, Time now) {
    check_registration(protocol::event_type_name<protocol::RegisterJob>(), now);
    const std::string& id = registered.id;
    const std::size_t bang = id.find('!');
    const std::string workload_name = id.substr(0, bang);
    if (workload_name != kWorkloadName && dynamic_workloads_.count(workload_name) == 0) {
      ReplyChecker::refuse(now, "REGISTER_JOB of " + quoted(id) + " in workload " +
                                    quoted(workload_name) +
                                    ", which does not exist (a REGISTER_PROFILE makes it)");
    }
    if (registered_ids_.count(id) != 0 || job_in_flight(id)) {
      ReplyChecker::refuse(now, "REGISTER_JOB of " + quoted(id) + ", which exists already");
    }
    const workload::Profile* profile = profile_named(workload_name, registered.profile);
    if (profile == nullptr) {
      ReplyChecker::refuse(now, "REGISTER_JOB of " + quoted(id) + " with unknown profile " +
                                    quoted(registered.profile));
    }
    workload::WorkloadJob source;
    source.job.id = id.substr(bang + 1);
    source.job.submit_time = now;
    source.job.nodes = registered.res;
    source.job.time_limit = registered.walltime;
    source.profile = registered.profile;
    if (const auto* fields = std::get_if<protocol::UserFieldsText>(&registered.user_fields)) {
      source.extra_json = fields->json;
    }
    const std::size_t index = take_slot();
    SimulatedJob& job = jobs_[index];
    fill_simulated_job(job, source, profile, workload_name);
    job.submit_order = submitted_count_++;
    job.stage = JobStage::kWaiting;
    if (power_) power_->job_submitted();
    registered_ids_.insert(id);
    waiting_.emplace(job.batsim_id, index);
    if (options_.acknowledge_dynamic_jobs) immediate_events_.push_back({now, job_submitted(job)});
  }

  void set_resource_state(const protocol::SetResourceState& decision, Time now) {
    if (!power_) checker_.throw_without_energy(protocol::Event{now, decision}, now);
    for (const SwitchStart& to_run : power_->decide(decision, now, power_events_)) {
      executor_.start_switch(to_run.machine, to_run.virtual_pstate, to_run.target);
    }
  }

  void start(std::size_t index, MachineSet alloc) {
    const Time now = last_now_;
    SimulatedJob& job = jobs_[index];
    checker_.check_allocation(protocol::event_type_name<protocol::ExecuteJob>(), job.batsim_id,
                              job.record.job.nodes, alloc, now);
    if (const MachineSet off = alloc & unavailable_; !off.empty()) {
      ReplyChecker::refuse(now, std::string(protocol::event_type_name<protocol::ExecuteJob>()) +
                                    " of " + quoted(job.batsim_id) + " on unavailable machines " +
                                    quoted(to_string(off)) + " (Batsim refuses it)");
    }
    if (power_) {
      power_->check_can_run(job.batsim_id, alloc, now);
      job.record.consumed_energy = power_->job_started(alloc, now);
    }
    machines_in_use_.occupy(alloc);
    running_.emplace(job.batsim_id, index);
    job.stage = JobStage::kRunning;
    job.record.start_time = now;
    job.record.machines = std::move(alloc);
    executor_.start(index, job.batsim_id, job.record.job, *job.profile, job.record.machines, now);
    if (!options_.resize_requests_replayed) return;
    for (std::size_t rank = 0; rank < job.resize_plan.size(); ++rank) {
      resizes_due_.emplace(now + job.resize_plan[rank].after, std::pair{index, rank});
    }
  }

  // Resize requests (docs/semantics.md#resize-requests-of-running-jobs) come after the instant's
  // completions and submissions, in the order they fell due; a job that ended by now makes none
  // (end_resizes dropped them).
  void make_resize_requests(Time now) {
    while (!resizes_due_.empty() && resizes_due_.begin()->first <= now) {
      const auto [index, rank] = resizes_due_.begin()->second;
      resizes_due_.erase(resizes_due_.begin());
      SimulatedJob& job = jobs_[index];
      ResizeRecord request;
      request.request_id = resize_request_id(job.batsim_id, job.record.resizes.size() + 1);
      request.request_time = now;
      request.nodes = job.resize_plan[rank].nodes;
      pending_resizes_.emplace(request.request_id, std::pair{index, job.record.resizes.size()});
      request_.in_process.resize_requests.push_back(
          {job.batsim_id, request.request_id, request.nodes});
      job.record.resizes.push_back(std::move(request));
    }
  }

  void grant_resize(const std::string& request_id, MachineSet alloc) {
    const Time now = last_now_;
    const auto pending = pending_resizes_.find(request_id);
    if (pending == pending_resizes_.end()) checker_.throw_no_pending_resize(request_id, now);
    const auto [index, made] = pending->second;
    ResizeRecord& request = jobs_[index].record.resizes[made];
    pending_resizes_.erase(pending);
    checker_.check_allocation("resize grant", request_id, request.nodes, alloc, now);
    machines_in_use_.occupy(alloc);
    request.outcome = ResizeRecord::Outcome::kGranted;
    request.grant_time = now;
    request.machines = std::move(alloc);
  }

  // At the job's end its granted machines come back and its pending requests are cancelled;
  // the requests it would have made later are never made.
  void end_resizes(SimulatedJob& job, Time end) {
    for (ResizeRecord& request : job.record.resizes) {
      request.release_time = end;
      if (request.outcome == ResizeRecord::Outcome::kGranted) {
        machines_in_use_.release(request.machines);
      } else {
        request.outcome = ResizeRecord::Outcome::kCancelled;
        pending_resizes_.erase(request.request_id);
      }
    }
    for (std::size_t rank = job.record.resizes.size(); rank < job.resize_plan.size(); ++rank) {
      drop_due_resize(job, rank);
    }
  }

  void drop_due_resize(const SimulatedJob& job, std::size_t rank) {
    const auto [first, last] =
        resizes_due_.equal_range(job.record.start_time + job.resize_plan[rank].after);
    for (auto it = first; it != last; ++it) {
      if (&jobs_[it->second.first] == &job && it->second.second == rank) {
        resizes_due_.erase(it);
        return;
      }
    }
  }

  workload::JobStream& stream_;
  protocol::DecisionProcess& decision_process_;
  Platform platform_;
  SimulationOptions options_;
  const JobEnded& job_ended_;
  MachineLedger machines_in_use_;
  ReplyChecker checker_;
  JobExecutor executor_;
  // The next job to submit, from the stream, which the readers guarantee gives Batsim's submit
  // order (by submit time, ties by id); null once all are submitted.
  const workload::WorkloadJob* next_job_;
  // The jobs in flight, by slot (a deque: jobs never move); ended jobs' slots are reused.
  JobTable jobs_;
  std::vector<std::size_t> free_slots_;
  std::vector<std::size_t> ended_slots_;  // ended this instant, free from the next
  std::size_t in_flight_ = 0;
  // Waiting jobs by id (views of their batsim_id, which stays put until the slot is reused):
  // only these can be named by a decision. Keying by id relies on the readers' guarantee that
  // ids are unique (a repeated id is renamed and the job marked invalid, so it is never
  // submitted).
  std::unordered_map<std::string_view, std::size_t> waiting_;
  std::uint64_t submitted_count_ = 0;
  std::size_t ended_ = 0;
  std::multiset<Time> wake_ups_;
  Time last_now_ = 0;
  // Resize requests to make, by time: the job's slot and the request's rank in its plan. Equal
  // times keep the order the jobs started in.
  std::multimap<Time, std::pair<std::size_t, std::size_t>> resizes_due_;
  // Requests made and neither granted nor cancelled, by id: the job's slot and the request's
  // place among the job's records.
  std::unordered_map<std::string, std::pair<std::size_t, std::size_t>> pending_resizes_;

  std::optional<PowerModel> power_;  // with --energy only
  // Power acknowledgements and energy answers for the next request, which comes at once.
  std::vector<protocol::Event> power_events_;
  std::vector<JobExecutor::SwitchEnd> switch_ends_;

  // Jobs running, by id as waiting_: those a KILL_JOB or SET_JOB_METADATA may name.
  std::unordered_map<std::string_view, std::size_t> running_;
  // What the next request tells at once: the answers to kills and acknowledged registrations.
  std::vector<protocol::Event> immediate_events_;
  // Jobs ended, their JOB_COMPLETED not sent yet (killed, or ended while the decision process
  // was deciding): Batsim passes over a kill of them.
  std::unordered_set<std::string> ended_untold_;
  // Decisions timestamped after the instant that replied, by time, in reply order; the
  // decision process is deciding until scheduler_ready_at_ (its reply's `now`).
  std::multimap<Time, protocol::Event> deferred_;
  Time scheduler_ready_at_ = 0;

  // Dynamic jobs: the registered profiles by "workload!name" (stable addresses: jobs point at
  // them), the workloads they made, the ids of registered jobs.
  std::unordered_map<std::string, workload::Profile> dynamic_profiles_;
  std::set<std::string> dynamic_workloads_;
  std::unordered_set<std::string> registered_ids_;
  bool registration_finished_ = false;

  // --events: the file's events by time, the next to send, the machines unavailable now.
  std::vector<ExternalEvent> external_;
  std::size_t next_external_ = 0;
  bool no_more_external_events_sent_ = false;
  MachineSet unavailable_;

  protocol::Message request_;          // the request being built, see collect_events()
  std::vector<Completion> ended_now_;  // the instant's completions, see collect_events()
  double scheduling_seconds_ = 0;
};

}  // namespace

SimulationResult run_simulation(workload::JobStream& jobs,
                                protocol::DecisionProcess& decision_process,
                                const SimulationOptions& options, const JobEnded& job_ended) {
  const WallClock::time_point start = WallClock::now();
  // Extra SimGrid settings, e.g. contexts/factory:thread under AddressSanitizer, which cannot
  // follow SimGrid's own stack switching
  // (docs/semantics.md#extra-simgrid-settings-batfill_simgrid_cfg). Given on the engine's command
  // line: the context factory is chosen when the engine starts. The stand-in's actor runs the
  // whole decision process (a JSON codec and socket too with --scheduler), so it keeps
  // SimGrid's default 8 MiB stack even where a platform shrinks its actors' stacks (Batsim's
  // simple_coalloc_platform.xml sets 16 KiB): the command line wins over the platform's config.
  std::vector<std::string> arguments = {"batfill", "--log=xbt_cfg.thresh:warning",
                                        "--cfg=contexts/stack-size:8192"};
  if (const char* extra = std::getenv("BATFILL_SIMGRID_CFG"); extra != nullptr && *extra != '\0') {
    arguments.push_back(std::string("--cfg=") + extra);
  }
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  int argc = static_cast<int>(argv.size());
  sg4::Engine engine(&argc, argv.data());
  // Warnings only, so batfill's own output stays readable (set first: a configuration change is
  // logged as information).
  xbt_log_control_set("root.thresh:warning");
  // ptask_L07 is the host model that runs parallel tasks; Batsim uses it too.
  sg4::Engine::set_config("host/model:ptask_L07");

  // After the engine, which installs handlers of its own.
  watch_stop_signals();
  report_foreign_crashes();
  if (options.energy) {
    // Before the plugin, whose own reading of the properties aborts on a malformed one.
    sg4::Host::on_creation_cb([](sg4::Host& host) { prepare_power_properties(host); });
    sg_host_energy_plugin_init();
  }
  Platform platform = load_platform(engine, jobs.workload(), options);
  sg4::Host* server_host = platform.server_host;
  BatsimStandIn stand_in(jobs, decision_process, std::move(platform), options, job_ended);
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
