#pragma once
// Batsim's external events (`--events FILE`, docs/protocol.md#external-events-of-the-stand-in):
// one JSON object a line, `type` and `timestamp`, and `resources` for the machine events.

#include <string>
#include <vector>

#include "batfill/common/time.hpp"
#include "batfill/protocol/messages.hpp"

namespace batfill::simulator {

// One event as the stand-in sends it: machine_unavailable and machine_available as Batsim's
// NOTIFY event_machine_unavailable and event_machine_available, any other type as a generic
// event (kOther) whose data is the line's object.
struct ExternalEvent {
  Time time = 0;
  protocol::BatsimNotify notify;
  std::string origin;  // "FILE:LINE", for errors about the event
};

// The events of `path` by time (ties in file order), as Batsim reads them. Throws
// std::runtime_error naming the file and line of a line that is not a JSON object, lacks a
// string `type` or a number `timestamp` >= 0, or is a machine event without an interval set
// `resources`; and of an event of another type unless `forward_unknown` (Batsim's
// --forward-unknown-events), without which Batsim refuses it.
std::vector<ExternalEvent> read_external_events(const std::string& path, bool forward_unknown);

}  // namespace batfill::simulator
