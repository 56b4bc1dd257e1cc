#pragma once
// Batsim 4 JSON <-> typed messages
// (docs/protocol.md#message-envelope–docs/protocol.md#events-batfill-writes).
//
// Both directions are handled by the same two functions, because batfill sits on both sides:
// `batfill serve` parses Batsim's requests and writes replies, the embedded simulator writes
// requests and parses the replies of an external scheduler.
//
// Parsing is tolerant (unknown keys ignored, v4-only keys optional, as pybatsim and batsched
// do) but strict about what batfill needs: a missing or mistyped field is a ProtocolError.
// Writing is exact: decisions carry only the members Batsim accepts, because Batsim aborts on
// an unexpected member count (docs/protocol.md#execute_job,
// docs/protocol.md#quirks-of-a-real-batsim-421). Times are written as 6-decimal numbers taken from
// the integer microseconds, so nothing drifts through a double.

#include <string>
#include <string_view>

#include "batfill/protocol/messages.hpp"
#include "batfill/protocol/protocol_error.hpp"

namespace batfill::protocol {

// Throws ProtocolError for malformed JSON, a missing or mistyped field, an invalid interval
// set or time, or an unknown event type.
Message parse_message(std::string_view json);

// Batsim 4's names of a job state and of a notification, as JOB_COMPLETED and NOTIFY carry
// them; for logs too.
std::string job_state_name(JobState state);
std::string notification_name(const BatsimNotify& notification);

// Whether `json` has Batsim 4's envelope: an object whose `events` are objects each with a
// `type` (Batsim 5's have an `event_type`), whatever their data. To tell a Batsim 4 that speaks
// to a Batsim 5 serve what it speaks, even when its message would not parse.
bool has_batsim4_envelope(std::string_view json);

// Throws std::invalid_argument for a message Batsim would abort on and batfill must never
// send: an EXECUTE_JOB with an empty allocation, or a time that is "never".
std::string write_message(const Message& message);

// The reply that stops a real Batsim 4.2.1 at once with `what` in its error, instead of leaving
// it blocked on a reply that never comes: a NOTIFY of an unknown type, which Batsim aborts on,
// quoting the type (docs/protocol.md#protocol-errors), stop_notice_text(what).
std::string write_stop_notice(const std::string& what);

}  // namespace batfill::protocol
