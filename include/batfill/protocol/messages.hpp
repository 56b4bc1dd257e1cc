#pragma once
// Batsim 4 protocol messages as typed C++ values
// (docs/protocol.md#message-envelope–docs/protocol.md#events-batfill-writes).
//
// Both sides of batfill use these types: `batfill serve` reads requests and writes replies as a
// decision process, the embedded simulator writes requests and reads replies as a Batsim
// stand-in. JSON is produced and parsed only at the socket (codec.hpp); the in-process simulator
// exchanges these values directly.

#include <map>
#include <string>
#include <variant>
#include <vector>

#include "batfill/common/machine_set.hpp"
#include "batfill/common/rejection.hpp"
#include "batfill/common/time.hpp"

namespace batfill::protocol {

// ---- Batsim -> scheduler -------------------------------------------------------------------

struct ComputeResource {
  int id = 0;
  std::string name;
  std::string state = "idle";
  std::map<std::string, std::string> properties;
  // Flops per power state: Batsim 5's `computation_speed`, which the stand-in sends as Batsim 5
  // does (Batsim 4 sends none).
  std::vector<double> speeds;
};

struct SimulationBegins {
  int nb_compute_resources = 0;
  int nb_storage_resources = 0;
  std::vector<ComputeResource> compute_resources;  // ids 0..n-1, in Batsim's id order
  std::string sched_config;                        // config.sched-config ("" when absent)
  std::map<std::string, std::string> workloads;    // name -> path
  // batfill's own, in-process only (never on a wire): the embedded simulator makes its jobs'
  // resize requests as ResizeRequested events (docs/semantics.md#resize-requests-of-running-jobs).
  bool resize_requests_replayed = false;
};

// The two user fields batfill reads (docs/protocol.md#job_submitted): `user` when an integer, -1
// otherwise; `queue` when a name or an integer (as its digits), "" otherwise.
struct TypedUserFields {
  int user = -1;
  std::string queue;
};

// The user fields as the JSON object text the job came with (every member of Batsim's job
// object but id, subtime, res, profile and walltime), verbatim.
struct UserFieldsText {
  std::string json;  // "{...}"
};

// The job object of JOB_SUBMITTED. Each datum is held in one form (docs/protocol.md#job_submitted):
// - the members batfill interprets are typed;
// - the user fields are the JSON text the job came with, when it came with one (from Batsim,
//   or from a Batsim JSON workload in the stand-in): kept verbatim because a job's fields are
//   forwarded to other schedulers exactly as written; a job built in-process from a trace
//   without JSON (SWF, CSV) holds the two batfill reads, typed, which the codecs write as
//   Batsim would. typed_user_fields() reads the two from either form.
struct SubmittedJob {
  std::string id;  // "w0!17"
  Time subtime = 0;
  int res = 0;
  std::string profile;
  Time walltime = kNoTimeLimit;  // absent or -1 in JSON
  std::variant<TypedUserFields, UserFieldsText> user_fields;
};

// `user` and `queue` of a job, from whichever form its user fields have.
TypedUserFields typed_user_fields(const SubmittedJob& job);

struct JobSubmitted {
  SubmittedJob job;
  // data.profile, present only with --forward-profiles-on-submission: batfill reads only the
  // delay of a `delay` profile (the clairvoyant predictor's runtime,
  // docs/semantics.md#predictions-correctors-and-backfill-order), so that is all the codecs keep of
  // it: kNoTimeLimit for no profile or a profile of another type. They write it back as a delay
  // profile.
  Time forwarded_delay = kNoTimeLimit;
};

// How a job ended, as Batsim reports it. Each codec names the states in its own table.
enum class JobState { kSucceeded, kFailed, kWalltimeReached, kKilled, kRejected };

struct JobCompleted {
  std::string job_id;
  JobState state = JobState::kSucceeded;
  int return_code = 0;
  MachineSet alloc;
};

struct JobKilled {
  std::vector<std::string> job_ids;
};

struct RequestedCall {};

// What a notification from Batsim says: Batsim 4's NOTIFY types, Batsim 5's events of the same
// meaning (docs/protocol.md "NOTIFY", "Events batfill reads" of Batsim 5). Each codec names
// them in its own table.
enum class Notification {
  kNoMoreStaticJobs,      // every job of the workloads has been submitted
  kNoMoreExternalEvents,  // no machine will change availability any more
  kMachinesUnavailable,   // `resources` may no longer be given to starting jobs
  kMachinesAvailable,     // `resources` may be given again
  kOther,                 // a type batfill does not know (a user's event), named in `other`
};

struct BatsimNotify {
  Notification kind = Notification::kOther;
  MachineSet resources;  // the machines of a change of availability
  std::string other;     // kOther's type as the wire named it
};

// QUERY estimate_waiting_time.
struct EstimateWaitingTimeQuery {
  SubmittedJob job;
};

// Which kind of power change a decision or its acknowledgement is
// (docs/protocol.md#power-states). Batsim 4 has one decision for both kinds, SET_RESOURCE_STATE,
// and tells them apart by the platform's sleep pstates; Batsim 5 has one event for each.
enum class PowerChange {
  kByPlatform,         // Batsim 4: whichever kind the target pstate makes it
  kComputationPState,  // between two computation pstates, at once
  kTurnOnOff,          // into or out of a sleep pstate, through its virtual switching pstate
};

// The machines `resources` are now in power state `pstate` (RESOURCE_STATE_CHANGED; Batsim 5's
// HostsPStateChangedEvent and HostsTurnedOnOffEvent): sent once every machine of one request has
// switched.
struct ResourceStateChanged {
  MachineSet resources;
  int pstate = 0;
  PowerChange change = PowerChange::kByPlatform;
};

// ANSWER consumed_energy: the joules every machine has consumed since time 0.
struct ConsumedEnergyAnswer {
  double joules = 0;
};

struct SimulationEnds {};

// batfill's own extension, in-process only: no Batsim can grow an allocation, so the codecs
// never write these (docs/semantics.md#resize-requests-of-running-jobs). A running job asks for
// `nodes` more machines; the request is named resize_request_id(job_id, K) for the job's K-th
// request.
struct ResizeRequested {
  std::string job_id;
  std::string request_id;
  int nodes = 0;
};

// ---- scheduler -> Batsim -------------------------------------------------------------------

struct ExecuteJob {
  std::string job_id;
  MachineSet alloc;
};

struct RejectJob {
  std::string job_id;
  // Why, for the simulator's outputs. Never on the wire: Batsim 4's REJECT_JOB accepts only
  // job_id, so a parsed RejectJob has an empty reason.
  Rejection reason;
};

struct CallMeLater {
  Time at = 0;  // strictly after Batsim's clock
};

// SET_RESOURCE_STATE (Batsim 5: ChangeHostsPStateEvent, TurnOnOffHostsEvent): put `resources`
// into power state `pstate`. Batsim 5 needs the kind of change; Batsim 4 reads it from the
// platform.
struct SetResourceState {
  MachineSet resources;
  int pstate = 0;
  PowerChange change = PowerChange::kByPlatform;
};

// QUERY consumed_energy: Batsim answers with a ConsumedEnergyAnswer.
struct ConsumedEnergyQuery {};

// The scheduler grants a pending resize request these machines, the job's until it ends.
struct GrantResize {
  std::string request_id;
  MachineSet alloc;
};
struct EstimateWaitingTimeAnswer {
  std::string job_id;
  Time estimated_waiting_time = 0;  // -1 s (from_seconds(-1)) when the job can never start
};

using EventData =
    std::variant<SimulationBegins, JobSubmitted, JobCompleted, JobKilled, RequestedCall,
                 BatsimNotify, EstimateWaitingTimeQuery, ResourceStateChanged, ConsumedEnergyAnswer,
                 SimulationEnds, ResizeRequested, ExecuteJob, RejectJob, CallMeLater, GrantResize,
                 EstimateWaitingTimeAnswer, SetResourceState, ConsumedEnergyQuery>;

struct Event {
  Time timestamp = 0;
  EventData data;
};

struct Message {
  Time now = 0;
  std::vector<Event> events;
};

// What a stop notice says, in either protocol (docs/protocol.md "Protocol errors"):
// "batfill error: " and `what` cut to 500 characters, each one that is not printable ASCII,
// or that JSON would escape (a quote, a backslash), made a space. A Batsim quotes it in its own
// error, which must read as it was written.
std::string stop_notice_text(const std::string& what);

// The event type name used on the wire ("JOB_SUBMITTED", "EXECUTE_JOB", ...).
std::string event_type_name(const EventData& data);

}  // namespace batfill::protocol
