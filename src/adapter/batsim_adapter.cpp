#include "batfill/adapter/batsim_adapter.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

#include "batfill/adapter/settings.hpp"
#include "batfill/common/json_document.hpp"
#include "batfill/core/policy_registry.hpp"
#include "batfill/protocol/codec.hpp"

namespace batfill::adapter {
using namespace batfill::protocol;

// "event 2 (JOB_COMPLETED)", built only when an error or a log line needs it: this runs for
// every event of every message.
std::string EventPosition::text() const {
  return "event " + std::to_string(index) + " (" + event_type_name(*data) + ")";
}

namespace {

[[noreturn]] void fail(const EventPosition& where, const std::string& what,
                       const std::string& field = "") {
  throw ProtocolError(what, field).in_event(where.index, event_type_name(*where.data));
}

Event stamped(Time now, EventData data) {
  Event event;
  event.timestamp = now;
  event.data = std::move(data);
  return event;
}

// Jobs of one instant are queued by id, never by message order
// (docs/semantics.md#order-of-same-instant-submissions).
void sort_by_id(std::vector<std::pair<EventPosition, const JobSubmitted*>>& submissions) {
  std::sort(submissions.begin(), submissions.end(), [](const auto& a, const auto& b) {
    return job_id_less(a.second->job.id, b.second->job.id);
  });
}

Job core_job(const SubmittedJob& submitted, Time now) {
  Job job;
  job.id = submitted.id;
  job.submit_time = now;  // the instant, which is the core's FCFS key
  job.nodes = submitted.res;
  job.time_limit = submitted.walltime;
  TypedUserFields fields = typed_user_fields(submitted);
  job.user = fields.user;
  job.queue = std::move(fields.queue);
  return job;
}

// The answer to `estimate_waiting_time`: how long until the job would start if submitted now,
// as its policy plans it (docs/semantics.md#waiting-time-estimates). Batsim merely logs the answer,
// so -1 s stands for "never".
Time waiting_estimate(const Scheduler& scheduler, const SubmittedJob& submitted, Time now) {
  const Time start = scheduler.estimate_start(core_job(submitted, now), now);
  return start == kNever ? from_seconds(-1) : start - now;
}

}  // namespace

BatsimAdapter::BatsimAdapter(std::string policy, SchedulerOptions options, Log log,
                             EventBatching batching)
    : policy_(std::move(policy)), options_(options), batching_(batching), log_(log) {
  find_policy(policy_);  // an unknown name fails now, not at the first message
}

BatsimAdapter::BatsimAdapter(std::string name, PolicyFactory make_policy, SchedulerOptions options,
                             Log log, EventBatching batching)
    : policy_(std::move(name)),
      make_policy_(std::move(make_policy)),
      options_(options),
      batching_(batching),
      log_(log) {
  if (!make_policy_) find_policy(policy_);
}

Message BatsimAdapter::exchange(const Message& request) {
  if (finished_) throw ProtocolError("request after SIMULATION_ENDS");
  const Time now = request.now;
  check_clock(now);
  begin_if_asked(request);
  Instant instant = gather_instant(request);
  // Batsim's first message holds SIMULATION_BEGINS (docs/protocol.md#quirks-of-a-real-batsim-421
  // (SIMULATION_BEGINS comes alone)); a message with no event at all gave gather_instant nothing to
  // refuse, yet a pass needs the core.
  if (!started())
    throw ProtocolError(
        "message before SIMULATION_BEGINS: the first message must begin the simulation");
  Message reply;
  reply.now = now;
  const Time at = instant_time(now, instant);
  if (batching_ == EventBatching::kInstant || instant.ends) {
    apply_instant(instant, at);
    if (instant.ends) return end(now);
    decide(at, reply);
    correct_expired_at_start(at, reply);
    ask_wake_up(reply);
  } else {
    apply_per_event(instant, now, reply);
  }
  answer(instant.queries, at, reply);
  if (options_.power.watch_energy && !instant.submissions.empty()) {
    reply.events.push_back(stamped(reply.now, ConsumedEnergyQuery{}));
  }
  check_liveness();
  return reply;
}

// Every prediction due by now (expired, or expiring within kWakeUpLead) is corrected before the
// completions, whether or not this request is the wake-up asked for it
// (docs/semantics.md#predictions-correctors-and-backfill-order): another request may come first,
// and a job completing now was running when its prediction expired; correcting one that ends this
// very instant changes no plan.
void BatsimAdapter::apply_instant(Instant& instant, Time now) {
  correct_due();
  for (const CompletionEvent& event : instant.completions) {
    complete(*event.completed, event.where, now);
  }
  submit(instant.submissions, now);
  for (const auto& [where, notification] : instant.notifications) notify(*notification, where);
  if (!instant.resize_requests->empty()) request_resizes(instant, now);
  if (!instant.power_reports.empty()) report_power(instant, now);
}

// A report names the pstate the machines reached: the sleep or the compute pstate of the settings.
void BatsimAdapter::report_power(const Instant& instant, Time now) {
  const PowerOptions& power = options_.power;
  for (const auto& [where, changed] : instant.power_reports) {
    if (changed->pstate != power.sleep_pstate && changed->pstate != power.compute_pstate) {
      fail(where, "field 'state': pstate " + std::to_string(changed->pstate) +
                      " is neither the sleep pstate (" + std::to_string(power.sleep_pstate) +
                      ") nor the compute pstate (" + std::to_string(power.compute_pstate) +
                      ") batfill switches to");
    }
    const PowerTarget target =
        changed->pstate == power.sleep_pstate ? PowerTarget::kSleep : PowerTarget::kCompute;
    try {
      scheduler_->power_reached(changed->resources, target, now);
    } catch (const std::invalid_argument& e) {
      fail(where, std::string("field 'resources': ") + e.what());
    }
    if (log_.debugging()) {
      log_.debug(where.text() + ": machines " + to_string(changed->resources) + " reached " +
                 to_string(target));
    }
  }
}

// batsched's energy_watcher aborts when the energy decreases: a platform that reports so is wrong.
void BatsimAdapter::watch_energy(const ConsumedEnergyAnswer& answer, const EventPosition& where) {
  if (consumed_joules_ >= 0 && answer.joules - consumed_joules_ < -1e-6) {
    fail(where, "field 'consumed_energy': " + std::to_string(answer.joules) +
                    " J, less than the " + std::to_string(consumed_joules_) +
                    " J answered before: consumed energy never decreases");
  }
  log_.info(where.text() + ": consumed energy " + std::to_string(answer.joules) + " J");
  consumed_joules_ = answer.joules;
}

// Requests join the queue after the instant's completions and submissions (docs/semantics.md
// docs/semantics.md#resize-requests-of-running-jobs), under the name the simulator gave them, which
// is the core's.
void BatsimAdapter::request_resizes(const Instant& instant, Time now) {
  for (const ResizeRequested& requested : *instant.resize_requests) {
    const auto refuse = [&](const std::string& what, const std::string& field) {
      throw ProtocolError("resize request '" + requested.request_id + "': " + what, field);
    };
    JobId made;
    try {
      made = scheduler_->request_resize(requested.job_id, requested.nodes, now);
    } catch (const std::invalid_argument& e) {
      refuse(e.what(), "job_id");
    }
    if (made != requested.request_id) {
      refuse("job '" + requested.job_id + "' makes request '" + made + "'", "request_id");
    }
  }
}

// pyss's event handling (docs/semantics.md#event-batching---batching): one pass per event,
// submissions in id order. pyss corrects expired predictions first in their second and runs no pass
// for them, so the corrections due by now are made before the first pass, and none needs a wake-up
// of its own (docs/semantics.md#predictions-correctors-and-backfill-order).
void BatsimAdapter::apply_per_event(Instant& instant, Time now, Message& reply) {
  sort_by_id(instant.submissions);
  const std::vector<std::vector<InstantEvent>> passes = per_event_passes(
      instant.submissions.size(), instant.notifications.size(), terminations_of(instant, now));
  if (!instant.power_reports.empty()) report_power(instant, now);
  // Idle power-off decides after every instant, even one without a pass of pyss's.
  if (passes.empty() && instant.resize_requests->empty()) {
    if (options_.power.enabled()) decide(now, reply);
    return;
  }
  scheduler_->correct_predictions(now);
  for (const std::vector<InstantEvent>& pass : passes) {
    apply_events(instant, pass, now);
    decide(now, reply);
  }
  // pyss has no resize requests: they come last, with a pass of their own.
  if (instant.resize_requests->empty()) return;
  request_resizes(instant, now);
  decide(now, reply);
}

// The events before one pass, completions first, as in an instant (per_event_passes lists them
// so).
void BatsimAdapter::apply_events(const Instant& instant, const std::vector<InstantEvent>& events,
                                 Time now) {
  std::vector<std::pair<EventPosition, const JobSubmitted*>> submissions;
  for (const InstantEvent& event : events) {
    if (event.kind == InstantEvent::Kind::kCompletion) {
      const CompletionEvent& completion = instant.completions[event.index];
      complete(*completion.completed, completion.where, now);
    } else if (event.kind == InstantEvent::Kind::kSubmission) {
      submissions.push_back(instant.submissions[event.index]);
    } else {
      const auto& [where, notification] = instant.notifications[event.index];
      notify(*notification, where);
    }
  }
  submit(submissions, now);
}

// Where each completion goes in pyss's order: when its job started, and whether it reached its
// planned end, counting the corrections due by now (those a wake-up of this request makes
// first). A completion of a job that is not running is refused when it is applied.
std::vector<Termination> BatsimAdapter::terminations_of(const Instant& instant, Time now) const {
  std::vector<Termination> terminations;
  terminations.reserve(instant.completions.size());
  for (std::size_t i = 0; i < instant.completions.size(); ++i) {
    const CompletionEvent& event = instant.completions[i];
    Termination termination;
    termination.index = i;
    const JobId& id = event.completed->job_id;
    if (scheduler_->stage(id) == JobStage::kRunning) {
      termination.start_sequence = scheduler_->start_sequence_of(id);
      termination.at_planned_end = event.completed->state == protocol::JobState::kWalltimeReached ||
                                   event.time >= scheduler_->planned_end_of(id, now);
    }
    terminations.push_back(termination);
  }
  return terminations;
}

// Batsim's clock starts at 0 and never goes back (docs/protocol.md#what-a-request-must-satisfy): a
// request that breaks this would make the core plan in the past.
void BatsimAdapter::check_clock(Time now) {
  if (now < 0) throw ProtocolError("'now' is " + format_seconds(now) + " s: must be >= 0");
  if (now < last_now_) {
    throw ProtocolError("'now' " + format_seconds(now) + " s is earlier than the previous " +
                        "message's " + format_seconds(last_now_) + " s");
  }
  last_now_ = now;
}

// SIMULATION_BEGINS creates the core, so it must be the first event; Batsim sends it alone
// (docs/protocol.md#quirks-of-a-real-batsim-421 (SIMULATION_BEGINS comes alone)). One found later
// is refused by gather_instant.
void BatsimAdapter::begin_if_asked(const Message& request) {
  if (request.events.empty()) return;
  const EventData& data = request.events.front().data;
  const auto* begins = std::get_if<SimulationBegins>(&data);
  if (begins == nullptr) return;
  const EventPosition where{0, &data};
  if (started()) fail(where, "the simulation has already begun");
  begin(*begins, where);
  resize_requests_replayed_ = request.in_process.resize_requests_replayed;
}

// The message order does not matter: only the steps of the instant do.
BatsimAdapter::Instant BatsimAdapter::gather_instant(const Message& request) {
  Instant instant;
  instant.resize_requests = &request.in_process.resize_requests;
  for (std::size_t i = 0; i < request.events.size(); ++i) {
    const EventData& data = request.events[i].data;
    const EventPosition where{i, &data};
    if (!started()) fail(where, "received before SIMULATION_BEGINS");
    if (std::holds_alternative<SimulationBegins>(data)) {
      if (i == 0) continue;  // begin_if_asked began with it
      fail(where, "the simulation has already begun");
    }
    file_event(where, request.events[i].timestamp, instant);
  }
  return instant;
}

void BatsimAdapter::file_event(const EventPosition& where, Time timestamp, Instant& instant) {
  const EventData& data = *where.data;
  if (const auto* completed = std::get_if<JobCompleted>(&data)) {
    instant.completions.push_back({where, completed, timestamp});
  } else if (const auto* submitted = std::get_if<JobSubmitted>(&data)) {
    instant.submissions.emplace_back(where, submitted);
  } else if (const auto* notification = std::get_if<BatsimNotify>(&data)) {
    instant.notifications.emplace_back(where, notification);
  } else if (const auto* query = std::get_if<EstimateWaitingTimeQuery>(&data)) {
    instant.queries.push_back(query);
  } else if (const auto* killed = std::get_if<JobKilled>(&data)) {
    // batfill never sends KILL_JOB; the machines came back with the JOB_COMPLETED that Batsim
    // sends before this acknowledgment.
    for (const std::string& id : killed->job_ids)
      log_.info(where.text() + ": job '" + id + "' killed");
  } else if (std::holds_alternative<RequestedCall>(data)) {
    instant.wake_up = true;
    if (log_.debugging()) log_.debug(where.text() + ": requested call");
  } else if (const auto* changed = std::get_if<ResourceStateChanged>(&data);
             changed != nullptr && options_.power.enabled()) {
    instant.power_reports.emplace_back(where, changed);
  } else if (const auto* energy = std::get_if<ConsumedEnergyAnswer>(&data);
             energy != nullptr && options_.power.watch_energy) {
    watch_energy(*energy, where);
  } else if (std::holds_alternative<ResourceStateChanged>(data) ||
             std::holds_alternative<ConsumedEnergyAnswer>(data)) {
    // Replies to requests batfill makes only with idle power-off or energy_watcher.
    log_.warning(where.text() + ": not expected by batfill, ignored");
  } else if (std::holds_alternative<SimulationEnds>(data)) {
    instant.ends = true;
  } else {
    fail(where, "a decision, which only a scheduler sends");
  }
}

void BatsimAdapter::begin(const SimulationBegins& begins, const EventPosition& where) {
  const int machines = begins.nb_compute_resources;
  if (machines <= 0)
    fail(where, "field 'nb_compute_resources' must be > 0", "nb_compute_resources");
  apply_sched_config(begins.sched_config, where);
  MachineSet unavailable;
  read_machines(begins, where, unavailable);
  scheduler_ = std::make_unique<Scheduler>(
      machines, make_policy_ ? make_policy_() : make_policy(policy_), options_);
  if (!unavailable.empty()) scheduler_->mark_unavailable(unavailable);
  log_.info("simulation begins: " + std::to_string(machines) + " machines, policy " + policy_ +
            ", order " + to_string(options_.order) + ", allocation " +
            to_string(options_.allocation) +
            (batching_ == EventBatching::kPerEvent ? ", per-event batching" : ""));
}

// Allocations are Batsim resource ids: the table comes from the ids Batsim gives, never from
// the order of the names (docs/protocol.md#quirks-of-a-real-batsim-421, resource ids).
void BatsimAdapter::read_machines(const SimulationBegins& begins, const EventPosition& where,
                                  MachineSet& unavailable) {
  const int machines = begins.nb_compute_resources;
  machine_names_.assign(static_cast<std::size_t>(machines), "");
  if (begins.compute_resources.empty()) return;
  if (static_cast<int>(begins.compute_resources.size()) != machines) {
    fail(where,
         "field 'compute_resources' lists " + std::to_string(begins.compute_resources.size()) +
             " machines but 'nb_compute_resources' is " + std::to_string(machines),
         "compute_resources");
  }
  std::vector<bool> seen(static_cast<std::size_t>(machines), false);
  for (const ComputeResource& resource : begins.compute_resources) {
    if (resource.id < 0 || resource.id >= machines || seen[static_cast<std::size_t>(resource.id)]) {
      fail(where,
           "field 'compute_resources': id " + std::to_string(resource.id) +
               " is out of range or repeated (ids must be 0.." + std::to_string(machines - 1) + ")",
           "compute_resources");
    }
    seen[static_cast<std::size_t>(resource.id)] = true;
    machine_names_[static_cast<std::size_t>(resource.id)] = resource.name;
    if (resource.state == "unavailable") unavailable += machine_range(resource.id, resource.id);
  }
}

// Over the settings given to the constructor, key by key (docs/protocol.md#--sched-cfg).
void BatsimAdapter::apply_sched_config(const std::string& text, const EventPosition& where) {
  if (text.empty()) return;
  // Settings are checked against a registered policy; a policy made by the program that runs
  // batfill got its settings there.
  if (make_policy_) {
    fail(where,
         "field 'config.sched-config': the settings of policy " + policy_ +
             " are given by the program that made it, not by a sched-config",
         "config.sched-config");
  }
  Settings settings{policy_, options_, batching_, nullptr};
  SettingValues given;
  try {
    given = apply_settings_json(text, "field 'config.sched-config'", settings);
  } catch (const std::invalid_argument& e) {
    fail(where, e.what());
  }
  policy_ = settings.policy;
  options_ = settings.scheduler;
  batching_ = settings.batching;
  for (const SettingValue& value : given.all()) {
    log_.info("sched-config sets " + value.key + " = " + value.shown);
  }
}

void BatsimAdapter::complete(const JobCompleted& completed, const EventPosition& where, Time now) {
  // Built only for a message: this runs for every completion.
  const auto job = [&completed] { return "job '" + completed.job_id + "'"; };
  switch (scheduler_->stage(completed.job_id)) {
    case JobStage::kNotSubmitted:
      fail(where, "field 'job_id': " + job() + " was never submitted", "job_id");
    case JobStage::kEnded:
      fail(where,
           "field 'job_id': " + job() +
               (scheduler_->was_rejected(completed.job_id) ? " completed but was rejected"
                                                           : " completed twice"),
           "job_id");
    case JobStage::kWaiting:
      fail(where, "field 'job_id': " + job() + " completed but was never started", "job_id");
    case JobStage::kRunning:
      break;
  }
  if (!completed.alloc.empty()) {
    const MachineSet& given = scheduler_->machines_of(completed.job_id);
    if (completed.alloc != given) {
      log_.warning(where.text() + ": " + job() + " ran on '" + to_string(completed.alloc) +
                   "' by Batsim's account but was given '" + to_string(given) + "'");
    }
  }
  if (log_.debugging() && completed.state != protocol::JobState::kSucceeded) {
    log_.debug(where.text() + ": " + job() + " ended " + protocol::job_state_name(completed.state));
  }
  if (log_.debugging()) {
    log_.debug(job() + " completed: predicted " +
               format_seconds(scheduler_->initial_prediction_of(completed.job_id)) + " s, " +
               std::to_string(scheduler_->corrections_of(completed.job_id)) + " corrections");
  }
  scheduler_->complete(completed.job_id, now);
}

bool BatsimAdapter::ever_submitted(const std::string& id) const {
  return scheduler_->stage(id) != JobStage::kNotSubmitted;
}

namespace {

// Whether the job's user fields hold the workload field "resize"
// (docs/semantics.md#resize-requests-of-running-jobs).
bool carries_resize_requests(const SubmittedJob& job) {
  const auto* text = std::get_if<UserFieldsText>(&job.user_fields);
  if (text == nullptr || text->json.find("resize") == std::string::npos) return false;
  rapidjson::Document fields;
  if (parse_json(fields, text->json).IsError() || !fields.IsObject()) return false;
  return fields.HasMember("resize");
}

}  // namespace

void BatsimAdapter::submit(std::vector<std::pair<EventPosition, const JobSubmitted*>>& submissions,
                           Time now) {
  // Most instants submit one job, which cannot repeat itself: only several need the set.
  const bool several = submissions.size() > 1;
  std::unordered_set<std::string> in_message;
  for (const auto& [where, submitted] : submissions) {
    const std::string& id = submitted->job.id;
    if (ever_submitted(id) || (several && !in_message.insert(id).second)) {
      fail(where, "field 'job_id': job '" + id + "' submitted twice", "job_id");
    }
  }
  sort_by_id(submissions);
  for (const auto& [where, submitted] : submissions) {
    if (!resize_requests_replayed_ && carries_resize_requests(submitted->job)) {
      log_.warning(where.text() + ": job '" + submitted->job.id +
                   "' carries resize requests; Batsim cannot grow an allocation, so it runs "
                   "without them (docs/semantics.md#resize-requests-of-running-jobs)");
    }
    Job job = core_job(submitted->job, now);
    job.runtime = submitted->forwarded_delay;
    scheduler_->submit(std::move(job));
  }
}

void BatsimAdapter::notify(const BatsimNotify& notification, const EventPosition& where) {
  using protocol::Notification;
  const bool unavailable = notification.kind == Notification::kMachinesUnavailable;
  if (unavailable || notification.kind == Notification::kMachinesAvailable) {
    const MachineSet all = machine_range(0, scheduler_->machine_count() - 1);
    if (!boost::icl::contains(all, notification.resources)) {
      fail(where,
           "field 'resources': '" + to_string(notification.resources) +
               "' names machines beyond the " + std::to_string(scheduler_->machine_count()) +
               " compute machines",
           "resources");
    }
    if (unavailable) {
      scheduler_->mark_unavailable(notification.resources);
    } else {
      scheduler_->mark_available(notification.resources);
    }
    log_.info(where.text() + ": machines " + to_string(notification.resources) +
              (unavailable ? " unavailable" : " available"));
  } else if (notification.kind == Notification::kNoMoreExternalEvents) {
    no_more_external_events_ = true;
  } else if (notification.kind == Notification::kNoMoreStaticJobs) {
    if (log_.debugging()) log_.debug(where.text() + ": no more static jobs");
  } else {
    // User events are forwarded only with --forward-unknown-events and mean nothing to batfill.
    log_.warning(where.text() + ": unknown NOTIFY type '" + notification.other + "' ignored");
  }
}

// The reply to SIMULATION_ENDS must stay empty: Batsim asserts all is idle.
Message BatsimAdapter::end(Time now) {
  finished_ = true;
  if (scheduler_->waiting_count() + scheduler_->running_count() != 0) {
    log_.warning("simulation ended with " + std::to_string(scheduler_->waiting_count()) +
                 " jobs waiting and " + std::to_string(scheduler_->running_count()) + " running");
  }
  log_.info("simulation ended at " + format_seconds(now) + " s");
  Message reply;
  reply.now = now;
  return reply;
}

// One scheduling pass; each decision is consumed here: its id and machines move into the reply.
void BatsimAdapter::decide(Time now, Message& reply) {
  std::vector<Decision>& decisions = decisions_;
  scheduler_->schedule(now, decisions);
  if (log_.debugging()) {
    for (const FirstReservation& reservation : scheduler_->take_first_reservations()) {
      log_.debug("reserve " + reservation.job_id + " from " + format_seconds(reservation.start) +
                 " s (first reservation, at " + format_seconds(now) + " s)");
    }
  }
  reply.events.reserve(decisions.size());
  for (Decision& decision : decisions) {
    if (decision.kind == Decision::Kind::kSwitchPower) {
      const bool sleep = decision.power == PowerTarget::kSleep;
      if (log_.debugging()) {
        log_.debug("switch " + to_string(decision.machines) + " to " + to_string(decision.power) +
                   " at " + format_seconds(now) + " s");
      }
      reply.events.push_back(stamped(
          reply.now, SetResourceState{std::move(decision.machines),
                                      sleep ? options_.power.sleep_pstate
                                            : options_.power.compute_pstate,
                                      protocol::PowerChange::kTurnOnOff}));
      continue;
    }
    if (decision.kind == Decision::Kind::kGrantResize) {
      if (log_.debugging()) {
        log_.debug("grant " + decision.job_id + " at " + format_seconds(now) + " s on " +
                   to_string(decision.machines));
      }
      reply.in_process.grants.push_back(
          GrantResize{std::move(decision.job_id), std::move(decision.machines)});
      continue;
    }
    if (decision.kind == Decision::Kind::kReject) {
      log_.info("rejected at " + format_seconds(now) + " s: " + decision.reason.text());
      reply.events.push_back(stamped(reply.now, RejectJob{std::move(decision.job_id)}));
      reply.in_process.rejection_reasons.push_back(std::move(decision.reason));
    } else {
      if (log_.debugging()) {
        log_.debug("start " + decision.job_id + " at " + format_seconds(now) + " s on " +
                   to_string(decision.machines));
      }
      reply.events.push_back(
          stamped(reply.now, ExecuteJob{std::move(decision.job_id), std::move(decision.machines)}));
    }
  }
  decisions.clear();
}

// A job started with a zero prediction (or one expiring within kWakeUpLead) has outlived it at
// once. Its correction is made now and the pass runs again, as a wake-up at this very instant
// would (docs/semantics.md#predictions-correctors-and-backfill-order): Batsim cannot be asked for a
// call at a time it has reached.
void BatsimAdapter::correct_expired_at_start(Time now, Message& reply) {
  while (correct_due()) decide(now, reply);
}

// A prediction that expires less than kWakeUpLead after Batsim's clock cannot have a wake-up of
// its own that Batsim is sure to accept (docs/protocol.md#call_me_later): it is corrected now.
// Checked before the call, which is out of line and runs at every request.
bool BatsimAdapter::correct_due() {
  const Time horizon = last_now_ + kWakeUpLead - 1;
  if (scheduler_->next_correction_time() > horizon) return false;
  scheduler_->correct_predictions(horizon);
  return true;
}

// Batsim's answer to a CALL_ME_LATER comes one internal message after the time asked for
// (docs/protocol.md#call_me_later): its instant is the time asked for, as in the embedded
// simulator, so that planned ends computed from it tie with the ones it corrects. Every call asked
// for up to `now` has come by then: it leaves the pending ones.
Time BatsimAdapter::instant_time(Time now, const Instant& instant) {
  Time at = now;
  const auto reached = wake_ups_.upper_bound(now);
  if (instant.wake_up && reached != wake_ups_.begin()) {
    at = std::max(*std::prev(reached), last_instant_);
  }
  wake_ups_.erase(wake_ups_.begin(), reached);
  last_instant_ = at;
  return at;
}

// A CALL_ME_LATER only for the next prediction to expire
// (docs/semantics.md#predictions-correctors-and-backfill-order), unless a wake-up already pending
// comes first; never otherwise, so runs without a corrector exchange exactly the messages they
// always did. Batsim refuses a wake-up at a time its clock has reached, and its clock moves on
// while it reads the reply (docs/protocol.md#call_me_later): the call goes first in the reply, and
// correct_due() has made every correction due before kWakeUpLead after Batsim's clock, so the call
// targets no earlier.
void BatsimAdapter::ask_wake_up(Message& reply) {
  Time at = scheduler_->next_correction_time();
  // An idle machine's switch off is due at a time of its own; one due sooner than Batsim could
  // call is made at the first call it can (docs/semantics.md#idle-power-off-power_off_after).
  const Time power = scheduler_->next_power_time(last_instant_);
  if (power != kNever) at = std::min(at, std::max(power, last_now_ + kWakeUpLead));
  if (at == kNever) return;
  if (!wake_ups_.empty() && *wake_ups_.begin() <= at) return;
  wake_ups_.insert(at);
  reply.events.insert(reply.events.begin(), stamped(reply.now, CallMeLater{at}));
}

void BatsimAdapter::answer(const std::vector<const EstimateWaitingTimeQuery*>& queries, Time now,
                           Message& reply) const {
  for (const EstimateWaitingTimeQuery* query : queries) {
    reply.events.push_back(stamped(
        reply.now,
        EstimateWaitingTimeAnswer{query->job.id, waiting_estimate(*scheduler_, query->job, now)}));
  }
}

// batfill asks for wake-ups only for corrections, and those only concern running jobs: with
// its policies decisions otherwise change only at events. So a queue that waits while nothing
// runs is only safe if some machines are unavailable and an external event may still bring
// them back; otherwise Batsim would deadlock.
void BatsimAdapter::check_liveness() const {
  if (scheduler_->waiting_count() == 0 || scheduler_->running_count() != 0) return;
  // A switch reports back, and brings a pass that wakes the machines the queue needs.
  if (scheduler_->machines_switching() != 0) return;
  const std::string waiting = std::to_string(scheduler_->waiting_count()) + " jobs wait";
  if (scheduler_->free_nodes() == scheduler_->machine_count()) {
    throw std::logic_error(waiting + " on an idle machine and policy '" + policy_ +
                           "' starts none: Batsim would deadlock");
  }
  if (no_more_external_events_) {
    throw ProtocolError(waiting +
                        " for unavailable machines, nothing runs and no external "
                        "event will make machines available again: Batsim would deadlock");
  }
  log_.debug(waiting + " for unavailable machines to come back");
}

}  // namespace batfill::adapter
