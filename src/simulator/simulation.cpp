#include "batfill/simulator/simulation.hpp"

#include "batfill/common/foreign_call.hpp"
#include "batsim_events.hpp"
#include "job_executor.hpp"
#include "machine_ledger.hpp"
#include "platform.hpp"
#include "progress_bar.hpp"
#include "reply_checker.hpp"
#include "simulated_job.hpp"
#include "wall_clock.hpp"

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
        next_job_(stream.next()) {}

  // Body of the stand-in's actor: from instant to instant until every job has ended.
  void run() {
    ProgressBar progress(options_.show_progress, stream_.record_count());
    begin_simulation();
    while (next_job_ != nullptr || in_flight_ > 0 || !wake_ups_.empty()) {
      if (stop_signal != 0) throw_interrupted();
      const Time now = wait_for_next_instant();
      const protocol::Message& request = collect_events(now);
      if (request.events.empty() && request.in_process.resize_requests.empty()) continue;
      apply_reply(exchange(request));
      progress.update(ended_, last_now_);
    }
    end_simulation();
    progress.finish(ended_, last_now_);
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
    if (next == kNever && !executor_.parallel_running()) ReplyChecker::throw_deadlock(jobs_);
    return last_now_ = executor_.wait_until(next, last_now_);
  }

  // One instant's events, in Batsim's order: completions, then submissions, then wake-ups.
  // The message and the completion list are members reused from instant to instant, so their
  // capacity is kept and an instant allocates neither.
  const protocol::Message& collect_events(Time now) {
    request_.now = now;
    request_.events.clear();
    request_.in_process.resize_requests.clear();
    release_ended_slots();
    collect_completions(now);
    const bool submissions_left = next_job_ != nullptr;
    while (next_job_ != nullptr && next_job_->job.submit_time <= now) {
      submit(take_slot());
      next_job_ = stream_.next();
    }
    if (submissions_left && next_job_ == nullptr) {
      request_.events.push_back(
          {now, protocol::BatsimNotify{protocol::Notification::kNoMoreStaticJobs, {}, {}}});
    }
    make_resize_requests(now);
    while (!wake_ups_.empty() && *wake_ups_.begin() <= now) {
      request_.events.push_back({*wake_ups_.begin(), protocol::RequestedCall{}});
      wake_ups_.erase(wake_ups_.begin());
    }
    // Already in Batsim's non-decreasing timestamp order: submissions and wake-ups are handled
    // exactly at their time (`now`), completions at or before it, and they come first.
    return request_;
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
      SimulatedJob& job = jobs_[completion.slot];
      job.record.finish_time = completion.time;
      job.record.state = completion.state;
      machines_in_use_.release(job.record.machines);
      end_resizes(job, completion.time);
      finish(completion.slot);  // before the event, which takes the record's machines
      request_.events.push_back({completion.time, job_completed(job, completion.state)});
    }
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

  // Takes the reply by value: allocations move into the job records.
  void apply_reply(protocol::Message reply) {
    const Time now = last_now_;
    std::size_t rejections = 0;
    for (protocol::Event& event : reply.events) {
      checker_.check_timestamp(event, reply.now, now);
      if (auto* execute = std::get_if<protocol::ExecuteJob>(&event.data)) {
        start(take_waiting_job(execute->job_id, protocol::event_type_name<protocol::ExecuteJob>()),
              std::move(execute->alloc));
      } else if (const auto* reject = std::get_if<protocol::RejectJob>(&event.data)) {
        const std::size_t index =
            take_waiting_job(reject->job_id, protocol::event_type_name<protocol::RejectJob>());
        jobs_[index].record.state = FinalState::kRejected;
        jobs_[index].record.rejection = rejection_of(reply, rejections++);
        finish(index);
      } else if (const auto* call = std::get_if<protocol::CallMeLater>(&event.data)) {
        checker_.check_wake_up(call->at, now);
        wake_ups_.insert(call->at);
      } else if (!std::holds_alternative<protocol::EstimateWaitingTimeAnswer>(event.data)) {
        checker_.throw_unexpected_event(event, now);
      }
    }
    for (protocol::GrantResize& grant : reply.in_process.grants) {
      grant_resize(grant.request_id, std::move(grant.alloc));
    }
  }

  void start(std::size_t index, MachineSet alloc) {
    const Time now = last_now_;
    SimulatedJob& job = jobs_[index];
    checker_.check_allocation(protocol::event_type_name<protocol::ExecuteJob>(), job.batsim_id,
                              job.record.job.nodes, alloc, now);
    machines_in_use_.occupy(alloc);
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

  protocol::Message request_;          // the instant's request, see collect_events()
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
