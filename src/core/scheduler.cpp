#include "batfill/core/scheduler.hpp"

#include <algorithm>
#include <functional>
#include <iterator>
#include <numeric>
#include <stdexcept>

#include "batfill/common/text.hpp"

namespace batfill {

namespace {

void check_backfill_order(const Policy& policy, BackfillOrder order) {
  if (order != BackfillOrder::kQueue && !policy.orders_candidates()) {
    throw std::invalid_argument("backfill order " + quoted(to_string(order)) +
                                " needs a policy that orders its candidates (easy-classic)");
  }
}

}  // namespace

void check_options(const Policy& policy, const SchedulerOptions& options) {
  make_predictor(options.predictor, options.predictor_options);
  if (!options.corrector.empty()) find_corrector(options.corrector);
  check_backfill_order(policy, options.backfill_order);
  if (options.queues) options.queues->validate();
}

Scheduler::Scheduler(int machine_count, std::unique_ptr<Policy> policy, SchedulerOptions options)
    : policy_(std::move(policy)),
      options_(options),
      predictor_(make_predictor(options_.predictor, options_.predictor_options)),
      corrections_(options_.corrector.empty() ? nullptr : make_corrector(options_.corrector)),
      pool_(machine_count),
      queues_(options_.queues ? *options_.queues : QueueConfig::implicit()) {
  if (machine_count <= 0) {
    throw std::invalid_argument("a machine needs at least one node, got " +
                                std::to_string(machine_count));
  }
  check_backfill_order(*policy_, options_.backfill_order);
  queues_.validate();
  if (options_.power.enabled()) {
    if (options_.power.switch_on < 0 || options_.power.switch_off < 0 ||
        options_.power.off_after < 0 || options_.power.keep_awake < 0) {
      throw std::invalid_argument("idle power-off needs non-negative times and machine counts");
    }
    power_ = std::make_unique<PowerStates>(machine_count, options_.power);
  }
}

// Inline: both run for every comparison of the wait queue's order.
inline const QueueSpec& Scheduler::queue_of(const Job& job) const {
  return queues_.queues[static_cast<std::size_t>(job.queue_index)];
}

inline bool Scheduler::precedes(const Job& a, const Job& b, Time now) const {
  const int pa = queue_of(a).priority;
  const int pb = queue_of(b).priority;
  if (pa != pb) return pa > pb;
  return queued_before(options_.order, a, b, now);
}

void Scheduler::complete(const JobId& id, Time now) {
  const auto it = running_.find(id);
  if (it == running_.end()) {
    throw std::invalid_argument("completion of job '" + id + "', which is not running");
  }
  if (it->second.job.resize_request) {
    throw std::invalid_argument("completion of resize request '" + id + "', which ends with job '" +
                                resizes_.job_of(id) + "'");
  }
  if (!resizes_.empty()) end_resizes(id, now);
  give_back(it->second, now);
  corrections_.untrack(it->second);
  const Job job = std::move(it->second.job);
  if (predictor_->learns() || predictor_->uses_running_jobs()) {
    to_learn_.push_back({now, it->second.start_sequence, job, now - it->second.start});
  }
  running_.erase(it);
  ended_.insert(job.id);
  policy_->on_job_completed(job);
}

void Scheduler::give_back(const RunningJob& running, Time now) {
  pool_.release(running.machines);
  if (power_) power_->became_idle(running.machines, now);
  if (queue_of(running.job).limits_slots()) slots_.remove(running.job);
  releases_.erase(running.release);
}

// The job's end is the end of its resizes (docs/semantics.md#resize-requests-of-running-jobs): the
// granted ones give their machines back with it, the pending ones are withdrawn.
void Scheduler::end_resizes(const JobId& job, Time now) {
  for (const JobId& request : resizes_.close(job)) {
    if (is_pending_resize(request)) {
      withdraw(request);
      continue;
    }
    const auto grant = running_.find(request);
    if (grant == running_.end()) continue;  // withdrawn earlier
    give_back(grant->second, now);
    const Job granted = std::move(grant->second.job);
    running_.erase(grant);
    policy_->on_job_completed(granted);
  }
}

JobId Scheduler::request_resize(const JobId& id, int nodes, Time now) {
  const auto it = running_.find(id);
  if (it == running_.end() || it->second.job.resize_request) {
    throw std::invalid_argument("resize request of job '" + id + "', which is not running");
  }
  if (nodes <= 0) {
    throw std::invalid_argument("resize request of job '" + id + "' for " + std::to_string(nodes) +
                                " nodes");
  }
  Job request = resizes_.make_request(it->second, nodes, now);
  if (waiting_.count(request.id) != 0 || running_.count(request.id) != 0) {
    throw std::invalid_argument("resize request '" + request.id + "' has the id of a job");
  }
  const JobId request_id = request.id;
  Job& stored = waiting_.emplace(request_id, std::move(request)).first->second;
  resizes_.add_pending(stored, it->second);
  enqueue(stored, now);
  return request_id;
}

void Scheduler::withdraw(const JobId& request) {
  const auto it = waiting_.find(request);
  if (it == waiting_.end() || !it->second.resize_request) {
    throw std::invalid_argument("withdrawal of '" + request +
                                "', which is no pending resize request");
  }
  const Job* job = &it->second;
  const std::size_t position = remove_from_queue({job}).front();
  resizes_.leave_queue(job);
  policy_->on_job_removed(*job, position);
  waiting_.erase(it);
}

bool Scheduler::is_pending_resize(const JobId& request) const {
  const auto it = waiting_.find(request);
  return it != waiting_.end() && it->second.resize_request;
}

// A granted resize is planned to end with its job.
void Scheduler::follow_correction(const RunningJob& running) {
  const Time end = planned_end(running.job, running.start);
  for (const JobId& request : resizes_.requests_of(running.job.id)) {
    const auto it = running_.find(request);
    if (it == running_.end()) continue;
    RunningJob& grant = it->second;
    const Time old_end = planned_end(grant.job, grant.start);
    grant.job.prediction = end == kNever ? kNoTimeLimit : end - grant.start;
    replan(grant, old_end);
  }
}

void Scheduler::replan(RunningJob& running, Time old_end) {
  releases_.erase(running.release);
  running.release = releases_.emplace(planned_end(running.job, running.start), running.job.nodes);
  policy_->on_prediction_extended(running.job, running.start, old_end);
}

void Scheduler::learn_completions_before(Time now) {
  const auto learned = std::partition(to_learn_.begin(), to_learn_.end(),
                                      [now](const Completed& done) { return done.end < now; });
  std::sort(to_learn_.begin(), learned, [](const Completed& a, const Completed& b) {
    return a.end != b.end ? a.end < b.end : a.start_sequence < b.start_sequence;
  });
  if (predictor_->learns()) {
    for (auto done = to_learn_.begin(); done != learned; ++done) {
      predictor_->learn(done->job, done->runtime, done->end);
    }
  }
  to_learn_.erase(to_learn_.begin(), learned);
}

// The prediction planning uses from submission on; policies that plan with walltimes get the
// walltime whatever the predictor.
Time Scheduler::predict(const Job& job) {
  learn_completions_before(job.submit_time);
  if (!policy_->plans_with_predictions()) return job.time_limit;
  std::vector<RunningJobInfo> running;
  if (predictor_->uses_running_jobs()) {
    // Jobs started in this instant are not yet running for the predictor: pyss starts them
    // after every event of the instant. Jobs that ended in this instant still are: pyss handles
    // submissions before terminations, whichever order the completions reached us in
    // (docs/semantics.md#predictions-correctors-and-backfill-order). Those are the completions not
    // yet learned from.
    for (const auto& [id, other] : running_) {
      // A granted resize is part of its job, not a job of the user.
      if (other.job.resize_request) continue;
      if (other.start < job.submit_time) running.push_back({&other.job, other.start});
    }
    for (const Completed& done : to_learn_) {
      const Time start = done.end - done.runtime;
      if (start < job.submit_time) running.push_back({&done.job, start});
    }
  }
  return predictor_->predict(job, job.submit_time, running);
}

// In expiry order; the order does not matter, as each job's correction is its own and the
// releases and plans it moves add up the same way.
int Scheduler::correct_predictions(Time now) {
  int corrections = 0;
  while (RunningJob* running = corrections_.take_expired(now)) {
    const Time old_end = planned_end(running->job, running->start);
    corrections += corrections_.correct(*running, now);
    replan(*running, old_end);
    if (!resizes_.empty()) follow_correction(*running);
    corrections_.track(*running);
  }
  return corrections;
}

const RunningJob& Scheduler::running_job(const JobId& id) const {
  const auto it = running_.find(id);
  if (it == running_.end()) throw std::invalid_argument("job '" + id + "' is not running");
  return it->second;
}

Time Scheduler::prediction_of(const JobId& id) const { return running_job(id).job.prediction; }
Time Scheduler::initial_prediction_of(const JobId& id) const {
  return running_job(id).initial_prediction;
}
Time Scheduler::planned_end_of(const JobId& id, Time now) const {
  const auto it = running_.find(id);
  if (it == running_.end()) return kNever;
  const RunningJob& running = it->second;
  // Asked at every completion of a per-event replay: copy the job only when a correction is due.
  if (!corrections_.due(running, now)) return planned_end(running.job, running.start);
  RunningJob corrected = running;
  corrections_.correct(corrected, now);
  return planned_end(corrected.job, corrected.start);
}
int Scheduler::corrections_of(const JobId& id) const { return running_job(id).corrections; }
std::uint64_t Scheduler::start_sequence_of(const JobId& id) const {
  return running_job(id).start_sequence;
}

// Jobs that can never run are refused at submission so they never block the queue
// (docs/semantics.md#rejection-at-submission). The refusal is written only for a job refused.
Scheduler::Admission Scheduler::admission(const Job& job) const {
  Admission admission;
  if (job.nodes <= 0) {
    admission.refusal = "requests " + std::to_string(job.nodes) + " nodes";
    return admission;
  }
  if (job.nodes > pool_.size()) {
    admission.refusal = "requests " + std::to_string(job.nodes) + " nodes but the machine has " +
                        std::to_string(pool_.size());
    return admission;
  }
  const int queue_index = queues_.queue_index(job.queue);
  if (queue_index < 0) {
    admission.refusal = "is in queue " + quoted(job.queue.empty() ? "(none)" : job.queue) +
                        ", which no configured queue lists, and there is no default queue";
    return admission;
  }
  const QueueSpec& queue = queues_.queues[static_cast<std::size_t>(queue_index)];
  const int user_limit = std::min(queue.slot_limit, queue.user_slot_limit);
  if (job.nodes > user_limit) {
    admission.refusal = "requests " + std::to_string(job.nodes) + " nodes but queue " +
                        quoted(queue.name) + " lets a user hold at most " +
                        std::to_string(user_limit);
    return admission;
  }
  admission.refusal = policy_->refusal(job);
  if (!admission.admitted()) return admission;
  admission.queue_index = queue_index;
  return admission;
}

JobStage Scheduler::stage(const JobId& id) const {
  if (waiting_.count(id) != 0) return JobStage::kWaiting;
  if (running_.count(id) != 0) return JobStage::kRunning;
  return ended_.contains(id) ? JobStage::kEnded : JobStage::kNotSubmitted;
}

void Scheduler::submit(Job job) {
  if (stage(job.id) != JobStage::kNotSubmitted) {
    throw std::invalid_argument("job '" + job.id + "' submitted twice");
  }
  Admission admitted = admission(job);
  if (!admitted.admitted()) return reject(job, std::move(admitted.refusal));
  Job& stored = waiting_.emplace(job.id, std::move(job)).first->second;
  stored.queue_index = admitted.queue_index;
  stored.prediction = predict(stored);
  enqueue(stored, stored.submit_time);
}

// Puts a job of waiting_ in the queue at its place at `now`.
void Scheduler::enqueue(Job& stored, Time now) {
  const auto place = queue_.insert(
      std::upper_bound(waiting_begin(), queue_.end(), &stored,
                       [&](const Job* a, const Job* b) { return precedes(*a, *b, now); }),
      &stored);
  policy_->on_job_queued(stored, static_cast<std::size_t>(place - waiting_begin()));
}

void Scheduler::reject(const Job& job, std::string reason) {
  Decision& decision = pending_.emplace_back();
  decision.kind = Decision::Kind::kReject;
  decision.job_id = job.id;
  decision.reason = Rejection("", job.id, std::move(reason));
  ended_.insert(job.id);
  rejected_.insert(job.id);
}

std::vector<Decision> Scheduler::schedule(Time now) {
  std::vector<Decision> decisions;
  schedule(now, decisions);
  return decisions;
}

void Scheduler::schedule(Time now, std::vector<Decision>& decisions) {
  decisions.clear();
  std::move(pending_.begin(), pending_.end(), std::back_inserter(decisions));
  pending_.clear();
  if (power_ && !power_->begun()) power_->begin(now);
  if (waiting_count() != 0) pass(now, decisions);
  if (power_) switch_power(now, decisions);
}

void Scheduler::pass(Time now, std::vector<Decision>& decisions) {
  if (resizes_.has_pending()) resizes_.age_pending(now);
  if (depends_on_time(options_.order)) {
    const std::vector<std::size_t> previous_positions = reordering(waiting_queue(), now);
    if (!previous_positions.empty()) {
      const std::vector<const Job*> before(waiting_begin(), queue_.end());
      for (std::size_t i = 0; i < before.size(); ++i) {
        waiting_begin()[static_cast<std::ptrdiff_t>(i)] = before[previous_positions[i]];
      }
      policy_->on_queue_reordered(previous_positions);
    }
  }

  std::vector<PlannedReleases::iterator> powered_off;
  if (power_) powered_off = power_->plan(releases_, now);
  const std::vector<const Job*> starting =
      policy_->select_jobs_to_start(view_at(now, waiting_queue()));
  for (const auto entry : powered_off) releases_.erase(entry);
  if (starting.empty()) return;

  // A sorted vector, not a hash set: a pass starts few jobs, and this runs at every instant.
  std::vector<const Job*> started = starting;
  std::sort(started.begin(), started.end(), std::less<const Job*>());
  for (const Job* job : starting) {
    const auto [first, last] =
        std::equal_range(started.begin(), started.end(), job, std::less<const Job*>());
    if (last - first != 1 || waiting_.count(job->id) == 0) {
      throw std::logic_error("policy started job '" + job->id + "' twice or while not waiting");
    }
  }
  const std::vector<std::size_t> positions = remove_from_queue(started);
  decisions.reserve(decisions.size() + starting.size());
  for (const Job* job : starting) {
    const auto index =
        std::lower_bound(started.begin(), started.end(), job, std::less<const Job*>()) -
        started.begin();
    start(*job, positions[static_cast<std::size_t>(index)], now, decisions);
  }
}

// The queue's order at `now` (queue priority, then --order), as the positions each job comes
// from; empty if no job moves. A stable sort: jobs the order ties keep their places.
std::vector<std::size_t> Scheduler::reordering(QueueView queue, Time now) const {
  std::vector<std::size_t> previous_positions(queue.size());
  std::iota(previous_positions.begin(), previous_positions.end(), std::size_t{0});
  std::stable_sort(
      previous_positions.begin(), previous_positions.end(),
      [&](std::size_t a, std::size_t b) { return precedes(*queue[a], *queue[b], now); });
  const bool moved = !std::is_sorted(previous_positions.begin(), previous_positions.end());
  return moved ? previous_positions : std::vector<std::size_t>{};
}

// Started jobs sit near the front of a long queue: only the jobs up to the last of them move,
// the ones kept ahead of it moving back next to the rest, and the front advances. Each started
// job is found by a plain search for its address: a pass starts few jobs, and a search that
// compares addresses only runs through even a long queue quickly (the jobs are still in
// waiting_). Returns where each started job was in the queue, in the order of `started`.
std::vector<std::size_t> Scheduler::remove_from_queue(const std::vector<const Job*>& started) {
  const auto front = waiting_begin();
  std::vector<std::size_t> positions(started.size());
  for (std::size_t i = 0; i < started.size(); ++i) {
    const auto found = std::find(front, queue_.end(), started[i]);
    if (found == queue_.end()) {
      throw std::logic_error("policy started job '" + started[i]->id + "', which is not queued");
    }
    positions[i] = static_cast<std::size_t>(found - front);
  }
  std::vector<std::size_t> removed = positions;
  std::sort(removed.begin(), removed.end());
  // The kept jobs between the removed ones move back, from the last gap to the first.
  auto kept_end = front + static_cast<std::ptrdiff_t>(removed.back()) + 1;
  for (std::size_t i = removed.size(); i-- > 0;) {
    const std::size_t gap_begin = i == 0 ? 0 : removed[i - 1] + 1;
    kept_end = std::move_backward(front + static_cast<std::ptrdiff_t>(gap_begin),
                                  front + static_cast<std::ptrdiff_t>(removed[i]), kept_end);
  }
  queue_front_ += removed.size();
  if (2 * queue_front_ >= queue_.size()) {
    queue_.erase(queue_.begin(), waiting_begin());
    queue_front_ = 0;
  }
  return positions;
}

// Moves a waiting job (already out of the queue) to the running jobs, with its machines.
// `position`: its place in the queue of the pass that started it.
void Scheduler::start(const Job& waiting, std::size_t position, Time now,
                      std::vector<Decision>& decisions) {
  if (waiting.resize_request) resizes_.leave_queue(&waiting);
  const auto it = waiting_.find(waiting.id);
  // Made in place: a RunningJob moved into the table costs a Job move per start.
  RunningJob& running = running_.try_emplace(it->first).first->second;
  running.job = std::move(it->second);  // `waiting` refers to it: not used below
  waiting_.erase(it);
  const Job& job = running.job;
  running.start = now;
  running.initial_prediction = job.prediction;
  running.start_sequence = started_count_++;
  running.machines = pool_.allocate(job.nodes, options_.allocation);
  running.release = releases_.emplace(planned_end(job, now), job.nodes);
  if (queue_of(job).limits_slots()) slots_.add(job);
  Decision& decision = decisions.emplace_back();
  if (job.resize_request) decision.kind = Decision::Kind::kGrantResize;
  decision.job_id = job.id;
  decision.machines = running.machines;
  // A granted resize is planned to end with its job, which follow_correction keeps.
  if (!job.resize_request) corrections_.track(running);
  policy_->on_job_started(job, position);
}

Time Scheduler::estimate_start(const Job& job, Time now) const {
  const Admission admitted = admission(job);
  if (!admitted.admitted()) return kNever;
  Job queued = job;
  queued.queue_index = admitted.queue_index;
  // The queue as it would be with `job` submitted now.
  const QueueView waiting = waiting_queue();
  PendingEvents pending;
  if (depends_on_time(options_.order)) pending.previous_positions = reordering(waiting, now);
  std::vector<const Job*> queue(waiting.begin(), waiting.end());
  for (std::size_t i = 0; i < pending.previous_positions.size(); ++i) {
    queue[i] = waiting[pending.previous_positions[i]];
  }
  const auto place = queue.insert(
      std::upper_bound(queue.begin(), queue.end(), &queued,
                       [&](const Job* a, const Job* b) { return precedes(*a, *b, now); }),
      &queued);
  pending.position = static_cast<std::size_t>(place - queue.begin());
  SchedulingView view = view_at(now, QueueView(queue));
  PlannedReleases with_power;  // the machines not awake, planned as at a pass
  if (power_) {
    with_power = releases_;
    power_->plan(with_power, now);
    view.releases = &with_power;
  }
  return policy_->estimate_start(queued, pending, view);
}

// docs/semantics.md#idle-power-off-power_off_after: the demand is the policy's, by default every
// waiting job's nodes.
void Scheduler::switch_power(Time now, std::vector<Decision>& decisions) {
  const long long demand = policy_->power_demand(waiting_queue());
  for (PowerSwitch& change : power_->decide(now, demand, pool_)) {
    if (change.target == PowerTarget::kSleep) pool_.power_down(change.machines);
    Decision& decision = decisions.emplace_back();
    decision.kind = Decision::Kind::kSwitchPower;
    decision.machines = std::move(change.machines);
    decision.power = change.target;
  }
}

void Scheduler::power_reached(const MachineSet& machines, PowerTarget target, Time now) {
  if (!power_) {
    throw std::invalid_argument("a power state was reported, but idle power-off is not set");
  }
  pool_.power_up(power_->reached(machines, target, now));
}

Time Scheduler::next_power_time(Time now) const {
  return power_ ? power_->next_switch_off(now, pool_) : kNever;
}

std::vector<const Job*>::iterator Scheduler::waiting_begin() {
  return queue_.begin() + static_cast<std::ptrdiff_t>(queue_front_);
}

QueueView Scheduler::waiting_queue() const {
  return QueueView(queue_.data() + queue_front_, queue_.data() + queue_.size());
}

SchedulingView Scheduler::view_at(Time now, QueueView queue) const {
  SchedulingView view;
  view.now = now;
  view.machine_count = pool_.size();
  view.free_nodes = pool_.free_count();
  view.queue = queue;
  view.releases = &releases_;
  view.backfill_order = options_.backfill_order;
  view.queues = &queues_;
  view.slots = &slots_;
  return view;
}

const MachineSet& Scheduler::machines_of(const JobId& id) const { return running_job(id).machines; }

}  // namespace batfill
