#pragma once
// The names Batsim 4 puts on the wire, each written once: the codec reads and writes them, and
// event_type_name() reports them.

#include <array>
#include <type_traits>
#include <utility>

#include "batfill/protocol/messages.hpp"
#include "name_table.hpp"

namespace batfill::protocol::wire {

// The "type" of the event that carries T.
template <typename T>
constexpr const char* event_type() {
  if constexpr (std::is_same_v<T, SimulationBegins>) return "SIMULATION_BEGINS";
  if constexpr (std::is_same_v<T, JobSubmitted>) return "JOB_SUBMITTED";
  if constexpr (std::is_same_v<T, JobCompleted>) return "JOB_COMPLETED";
  if constexpr (std::is_same_v<T, JobKilled>) return "JOB_KILLED";
  if constexpr (std::is_same_v<T, RequestedCall>) return "REQUESTED_CALL";
  if constexpr (std::is_same_v<T, BatsimNotify>) return "NOTIFY";
  if constexpr (std::is_same_v<T, EstimateWaitingTimeQuery>) return "QUERY";
  if constexpr (std::is_same_v<T, ResourceStateChanged>) return "RESOURCE_STATE_CHANGED";
  // Both directions call their reply ANSWER; the codec tells them apart by their data.
  if constexpr (std::is_same_v<T, ConsumedEnergyAnswer>) return "ANSWER";
  if constexpr (std::is_same_v<T, EstimateWaitingTimeAnswer>) return "ANSWER";
  if constexpr (std::is_same_v<T, SimulationEnds>) return "SIMULATION_ENDS";
  if constexpr (std::is_same_v<T, ExecuteJob>) return "EXECUTE_JOB";
  if constexpr (std::is_same_v<T, RejectJob>) return "REJECT_JOB";
  if constexpr (std::is_same_v<T, CallMeLater>) return "CALL_ME_LATER";
  if constexpr (std::is_same_v<T, SetResourceState>) return "SET_RESOURCE_STATE";
  if constexpr (std::is_same_v<T, ConsumedEnergyQuery>) return "QUERY";
  if constexpr (std::is_same_v<T, KillJob>) return "KILL_JOB";
  if constexpr (std::is_same_v<T, RegisterProfile>) return "REGISTER_PROFILE";
  if constexpr (std::is_same_v<T, RegisterJob>) return "REGISTER_JOB";
  if constexpr (std::is_same_v<T, SetJobMetadata>) return "SET_JOB_METADATA";
}

// The keys of a Batsim job object that batfill reads (SubmittedJob's members); every other key
// is a user field, kept verbatim in SubmittedJob::user_fields.
inline constexpr const char* kJobId = "id";
inline constexpr const char* kJobSubtime = "subtime";
inline constexpr const char* kJobRes = "res";
inline constexpr const char* kJobProfile = "profile";
inline constexpr const char* kJobWalltime = "walltime";
inline constexpr std::array<const char*, 5> kJobKeys = {kJobId, kJobSubtime, kJobRes, kJobProfile,
                                                        kJobWalltime};

// The requests of a QUERY and the members of an ANSWER: Batsim asks estimate_waiting_time,
// the scheduler asks consumed_energy.
inline constexpr const char* kEstimateWaitingTime = "estimate_waiting_time";
inline constexpr const char* kConsumedEnergy = "consumed_energy";

// JOB_COMPLETED's job_state.
inline constexpr std::array<std::pair<JobState, const char*>, 5> kJobStates = {{
    {JobState::kSucceeded, "COMPLETED_SUCCESSFULLY"},
    {JobState::kFailed, "COMPLETED_FAILED"},
    {JobState::kWalltimeReached, "COMPLETED_WALLTIME_REACHED"},
    {JobState::kKilled, "COMPLETED_KILLED"},
    {JobState::kRejected, "REJECTED"},
}};

// NOTIFY's type; any other type is Notification::kOther.
inline constexpr std::array<std::pair<Notification, const char*>, 6> kNotifications = {{
    {Notification::kNoMoreStaticJobs, "no_more_static_job_to_submit"},
    {Notification::kNoMoreExternalEvents, "no_more_external_event_to_occur"},
    {Notification::kMachinesUnavailable, "event_machine_unavailable"},
    {Notification::kMachinesAvailable, "event_machine_available"},
    {Notification::kRegistrationFinished, "registration_finished"},
    {Notification::kContinueRegistration, "continue_registration"},
}};

}  // namespace batfill::protocol::wire
