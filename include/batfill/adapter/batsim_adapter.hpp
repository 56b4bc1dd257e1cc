#pragma once
// The Batsim adapter: batfill as a Batsim decision process. Each Batsim request becomes one
// instant of the scheduling core (batfill::Scheduler), and the core's decisions become the reply.
//
// The same object serves `batfill serve` (behind the JSON codec and a ZeroMQ socket) and the
// embedded simulator (typed messages, no JSON), so both run exactly the same scheduler.
//
// One request = one instant (docs/protocol.md#one-request-one-instant):
//   1. the corrections of every prediction expired by `now` (with a corrector);
//   2. every JOB_COMPLETED, whatever its job_state (walltime reached, killed and failed jobs
//      free their machines like finished ones);
//   3. every JOB_SUBMITTED, in job-id order (w0!9 before w0!10), never message order, each with
//      submit_time = the request's `now`;
//   4. NOTIFY event_machine_unavailable / event_machine_available, then the embedded
//      simulator's resize requests (docs/semantics.md#resize-requests-of-running-jobs);
//   5. one scheduling pass at `now` (again after correcting jobs just started with a zero
//      prediction), and a CALL_ME_LATER if a prediction expires later;
// A REQUESTED_CALL's steps run at the time the call asked for, not at Batsim's `now`, a message
// later (docs/protocol.md#call_me_later), and a prediction expiring within kWakeUpLead of `now`
// counts as due (step 1). then QUERY estimate_waiting_time is answered from the state after the
// pass. The reply echoes `now` and stamps every decision with it: CALL_ME_LATER first, then
// REJECT_JOB, EXECUTE_JOB and ANSWER. With EventBatching::kPerEvent the request's events are
// instead applied as pyss handles them, one pass per event (event_batching.hpp), their decisions
// gathered in the one reply.

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "batfill/adapter/event_batching.hpp"
#include "batfill/adapter/log.hpp"
#include "batfill/common/id_set.hpp"
#include "batfill/core/scheduler.hpp"
#include "batfill/protocol/decision_process.hpp"

namespace batfill::adapter {

// Where an event sits in its request, for error messages.
struct EventPosition {
  std::size_t index = 0;
  const protocol::EventData* data = nullptr;
  std::string text() const;
};

class BatsimAdapter : public protocol::DecisionProcess {
 public:
  // The least time between a request's `now` and a CALL_ME_LATER of its reply. Batsim has moved
  // on by one internal message when it reads the call (docs/protocol.md#call_me_later), 0.6 ms on
  // its example cluster512; a prediction that expires sooner after `now` is corrected at `now`.
  // Whole-second traces never meet it: their expiries after `now` are whole seconds after it.
  static constexpr Time kWakeUpLead = from_seconds(1) / 10;

  // `policy` is a name from registered_policies(); throws std::invalid_argument otherwise.
  // The core is created at SIMULATION_BEGINS. A JSON object in config.sched-config overrides
  // these settings key by key (settings.hpp): Batsim's --sched-cfg is the one channel meant
  // for the scheduler, so it wins, and each override is logged.
  explicit BatsimAdapter(std::string policy, SchedulerOptions options = {}, Log log = Log(),
                         EventBatching batching = EventBatching::kInstant);
  // The same with a policy written outside batfill's registry (a Python one, docs/python.md):
  // `make_policy` makes it at SIMULATION_BEGINS and `name` names it in logs and errors; a
  // sched-config is refused. Without `make_policy`, `name` is a registered policy, as above.
  using PolicyFactory = std::function<std::unique_ptr<Policy>()>;
  BatsimAdapter(std::string name, PolicyFactory make_policy, SchedulerOptions options,
                Log log = Log(), EventBatching batching = EventBatching::kInstant);

  // Throws protocol::ProtocolError for a request batfill cannot apply: an event before
  // SIMULATION_BEGINS or after SIMULATION_ENDS, a completion of a job never submitted or not
  // running, a duplicate submission, machine ids outside the platform, a bad sched-config. The
  // text names the event and the field; the caller adds the exchange index. Throws
  // std::logic_error if jobs would wait forever on an idle machine (a core bug that would
  // otherwise deadlock Batsim). Every RejectJob of the reply carries the core's reason.
  protocol::Message exchange(const protocol::Message& request) override;

  // SIMULATION_ENDS has been answered: no further request is valid.
  bool finished() const { return finished_; }
  bool started() const { return scheduler_ != nullptr; }

  // The settings in force (after sched-config, once started).
  const std::string& policy() const { return policy_; }
  const SchedulerOptions& options() const { return options_; }
  EventBatching batching() const { return batching_; }
  // Null before SIMULATION_BEGINS.
  const Scheduler* scheduler() const { return scheduler_.get(); }
  // Host names by Batsim resource id, from compute_resources (never assumed from name order).
  const std::vector<std::string>& machine_names() const { return machine_names_; }

 private:
  struct CompletionEvent {
    EventPosition where;
    const protocol::JobCompleted* completed;
    Time time;  // the event's timestamp: when the job ended
  };
  // The events of one request, sorted into the steps of one instant.
  struct Instant {
    std::vector<CompletionEvent> completions;
    std::vector<std::pair<EventPosition, const protocol::JobSubmitted*>> submissions;
    std::vector<std::pair<EventPosition, const protocol::BatsimNotify*>> notifications;
    std::vector<const protocol::EstimateWaitingTimeQuery*> queries;
    // The request's, after its events (docs/semantics.md#resize-requests-of-running-jobs).
    const std::vector<protocol::ResizeRequested>* resize_requests = nullptr;
    std::vector<std::pair<EventPosition, const protocol::ResourceStateChanged*>> power_reports;
    bool wake_up = false;  // Batsim's answer to a CALL_ME_LATER
    bool ends = false;
  };

  void check_clock(Time now);
  void begin_if_asked(const protocol::Message& request);
  Instant gather_instant(const protocol::Message& request);
  void file_event(const EventPosition& where, Time timestamp, Instant& instant);
  void apply_instant(Instant& instant, Time now);
  void apply_per_event(Instant& instant, Time now, protocol::Message& reply);
  void apply_events(const Instant& instant, const std::vector<InstantEvent>& events, Time now);
  std::vector<Termination> terminations_of(const Instant& instant, Time now) const;
  void begin(const protocol::SimulationBegins& begins, const EventPosition& where);
  void read_machines(const protocol::SimulationBegins& begins, const EventPosition& where,
                     MachineSet& unavailable);
  void apply_sched_config(const std::string& text, const EventPosition& where);
  void complete(const protocol::JobCompleted& completed, const EventPosition& where, Time now);
  void submit(std::vector<std::pair<EventPosition, const protocol::JobSubmitted*>>& submissions,
              Time now);
  void correct_expired_at_start(Time now, protocol::Message& reply);
  void ask_wake_up(protocol::Message& reply);
  // Makes the corrections due by kWakeUpLead after Batsim's clock; false when none was.
  bool correct_due();
  Time instant_time(Time now, const Instant& instant);
  void notify(const protocol::BatsimNotify& notification, const EventPosition& where);
  void request_resizes(const Instant& instant, Time now);
  // Idle power-off (docs/semantics.md#idle-power-off-power_off_after): the platform's reports of
  // the switches batfill asked for.
  void report_power(const Instant& instant, Time now);
  // batsched's energy_watcher: the platform's consumed energy never decreases.
  void watch_energy(const protocol::ConsumedEnergyAnswer& answer, const EventPosition& where);
  protocol::Message end(Time now);
  void decide(Time now, protocol::Message& reply);
  void answer(const std::vector<const protocol::EstimateWaitingTimeQuery*>& queries, Time now,
              protocol::Message& reply) const;
  void check_liveness() const;
  // Waiting, running or ended: known to this run.
  bool ever_submitted(const std::string& id) const;

  std::string policy_;
  PolicyFactory make_policy_;  // null: the registered policy named policy_
  SchedulerOptions options_;
  EventBatching batching_;
  Log log_;
  std::unique_ptr<Scheduler> scheduler_;
  std::vector<std::string> machine_names_;
  std::vector<Decision> decisions_;  // one pass's, its buffer kept from pass to pass
  std::set<Time> wake_ups_;          // CALL_ME_LATER times asked for and not yet reached
  // The embedded simulator replays resize requests
  // (docs/semantics.md#resize-requests-of-running-jobs): a job carrying them needs no warning then.
  bool resize_requests_replayed_ = false;
  bool no_more_external_events_ = false;
  bool finished_ = false;
  Time last_now_ = 0;      // the latest request's `now`
  Time last_instant_ = 0;  // the time the core saw at the latest request
  double consumed_joules_ = -1;  // the last energy the platform answered; -1: none yet
};

}  // namespace batfill::adapter
