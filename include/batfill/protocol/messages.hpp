#pragma once
// Batsim 4 protocol messages as typed C++ values
// (docs/protocol.md#message-envelope–docs/protocol.md#events-batfill-writes).
//
// Both sides of batfill use these types: `batfill serve` reads requests and writes replies as a
// decision process, the embedded simulator writes requests and reads replies as a Batsim
// stand-in. JSON is produced and parsed only at the socket (codec.hpp); the in-process simulator
// exchanges these values directly.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// The features Batsim was started with, as SIMULATION_BEGINS's `config` reports them
// (docs/protocol.md#simulation_begins): schedulers such as batsched's submitter check them
// before they register jobs.
struct BatsimFeatures {
  bool profiles_forwarded_on_submission = false;  // --forward-profiles-on-submission
  bool dynamic_jobs = false;                      // --enable-dynamic-jobs
  bool dynamic_jobs_acknowledged = false;         // --acknowledge-dynamic-jobs
  bool profile_reuse = false;                     // --enable-profile-reuse
  bool forward_unknown_events = false;            // --forward-unknown-events
};

struct SimulationBegins {
  int nb_compute_resources = 0;
  int nb_storage_resources = 0;
  std::vector<ComputeResource> compute_resources;  // ids 0..n-1, in Batsim's id order
  std::string sched_config;                        // config.sched-config ("" when absent)
  std::map<std::string, std::string> workloads;    // name -> path
  BatsimFeatures features;
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

// How far a killed job had got, as JOB_KILLED reports it (docs/protocol.md#job_killed): a
// leaf profile (delay, parallel task) has the fraction of it done; a sequence has the index of
// its current task (-1 when none had started) and that task's progress.
struct JobProgress {
  std::string profile_name;
  double progress = 0;                    // a leaf's, in [0, 1]
  std::optional<int> current_task_index;  // a sequence's; none for a leaf
  std::vector<JobProgress> current_task;  // a sequence's current task: none or one
};

struct JobKilled {
  std::vector<std::string> job_ids;
  // The jobs really killed (not those that had ended on their own), in job_ids' order.
  std::vector<std::pair<std::string, JobProgress>> progress;
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
  // From the scheduler (dynamic jobs, docs/protocol.md "REGISTER_JOB"):
  kRegistrationFinished,  // it will register no more jobs
  kContinueRegistration,  // it takes back a registration_finished
  kOther,                 // a type batfill does not know (a user's event), named in `other`
};

struct BatsimNotify {
  Notification kind = Notification::kOther;
  MachineSet resources;  // the machines of a change of availability
  std::string other;     // kOther's type as the wire named it
  // kOther's whole data object (a generic external event as its file had it, which Batsim
  // forwards as NOTIFY's data); "" writes {"type": other}.
  std::string event_json;
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

// ---- scheduler -> Batsim -------------------------------------------------------------------

struct ExecuteJob {
  std::string job_id;
  MachineSet alloc;
};

struct RejectJob {
  std::string job_id;
};

// KILL_JOB (Batsim 5: KillJobsEvent): answered by a JOB_COMPLETED per job killed, then one
// JobKilled.
struct KillJob {
  std::vector<std::string> job_ids;  // never empty
};

// REGISTER_PROFILE: a profile for later REGISTER_JOBs, in a workload that need not exist yet.
struct RegisterProfile {
  std::string workload_name;
  std::string profile_name;
  std::string profile_json;  // the profile object, verbatim ("{\"type\":\"delay\",...}")
};

// REGISTER_JOB: a job submitted at the event's time, its id "workload!name".
struct RegisterJob {
  SubmittedJob job;
};

// SET_JOB_METADATA: a text for the job's `metadata` column of _jobs.csv.
struct SetJobMetadata {
  std::string job_id;
  std::string metadata;  // without '"', which Batsim refuses
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

struct EstimateWaitingTimeAnswer {
  std::string job_id;
  Time estimated_waiting_time = 0;  // -1 s (from_seconds(-1)) when the job can never start
};

// The events either protocol carries, each codec in its own wire form.
using EventData =
    std::variant<SimulationBegins, JobSubmitted, JobCompleted, JobKilled, RequestedCall,
                 BatsimNotify, EstimateWaitingTimeQuery, ResourceStateChanged, ConsumedEnergyAnswer,
                 SimulationEnds, ExecuteJob, RejectJob, CallMeLater, EstimateWaitingTimeAnswer,
                 SetResourceState, ConsumedEnergyQuery, KillJob, RegisterProfile, RegisterJob,
                 SetJobMetadata>;

struct Event {
  Time timestamp = 0;
  EventData data;
};

// ---- batfill's own, in-process only ----------------------------------------------------------

// A running job asks for `nodes` more machines; the request is named resize_request_id(job_id,
// K) for the job's K-th request (docs/semantics.md#resize-requests-of-running-jobs).
struct ResizeRequested {
  std::string job_id;
  std::string request_id;
  int nodes = 0;
};

// The scheduler grants a pending resize request these machines, the job's until it ends.
struct GrantResize {
  std::string request_id;
  MachineSet alloc;
};

// What the embedded simulator and batfill's own adapter tell each other beside the events: no
// Batsim can grow an allocation, and Batsim 4's REJECT_JOB has no reason, so neither codec
// reads or writes these, and a message parsed from a wire has them empty.
struct InProcess {
  // In the request that begins the simulation: the simulator makes its jobs' resize requests.
  bool resize_requests_replayed = false;
  // In a request: the resize requests that fell due at `now`, in the order they fell due.
  std::vector<ResizeRequested> resize_requests;
  // In a reply: the resize requests granted.
  std::vector<GrantResize> grants;
  // In a reply: why, for the simulator's outputs, each RejectJob of the events was decided, in
  // the order of the RejectJobs.
  std::vector<Rejection> rejection_reasons;
};

struct Message {
  Time now = 0;
  std::vector<Event> events;
  InProcess in_process;
};

// What a stop notice says, in either protocol (docs/protocol.md "Protocol errors"):
// "batfill error: " and `what` cut to 500 characters, each one that is not printable ASCII,
// or that JSON would escape (a quote, a backslash), made a space. A Batsim quotes it in its own
// error, which must read as it was written.
std::string stop_notice_text(const std::string& what);
inline constexpr std::string_view kStopNoticePrefix = "batfill error: ";

// The name Batsim 4 gives the event that carries `data` ("JOB_SUBMITTED", "EXECUTE_JOB", ...),
// for messages in either protocol's terms; the same for a type T of EventData.
std::string event_type_name(const EventData& data);
template <typename T>
const char* event_type_name();

}  // namespace batfill::protocol
