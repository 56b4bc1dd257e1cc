#pragma once
// Batsim 5 (batprotocol, JSON format) <-> the typed messages of messages.hpp
// (docs/protocol.md#batsim-5-batprotocol).
//
// Batsim 5 sends and reads flatbuffers `Message`s. In their JSON form (flatbuffers' text format,
// strict JSON) a union field `x` is two members: `x_type`, the table's name, and `x`, the table:
// {"now": 5.0, "events": [{"timestamp": 5.0, "event_type": "JobCompletedEvent",
//  "event": {"job_id": "w0!1", "state": "COMPLETED_SUCCESSFULLY", "return_code": 0}}]}.
// Absent fields take the schema's default, as flatbuffers reads them.
//
// Each Batsim 5 event maps to the Batsim 4 value of the same meaning, so the adapter and the
// simulator serve both protocols unchanged: AllStaticJobsHaveBeenSubmitted is the NOTIFY
// no_more_static_job_to_submit, an external event {"type": "machine_unavailable", "resources":
// ...} is the NOTIFY event_machine_unavailable, and so on. Events with no Batsim 4 meaning
// batfill needs (power states, probes, other external events) are not in the message: they are
// listed in `ignored`, for the caller to log.
//
// As codec.hpp, both directions are here: `batfill serve --protocol batsim5` and the EDC library
// read Batsim's events and write decisions; the embedded simulator, driving a Batsim 5 EDC,
// writes Batsim's events and reads decisions.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "batfill/protocol/codec.hpp"
#include "batfill/protocol/messages.hpp"

namespace batfill::protocol::batsim5 {

// The flags word of batsim_edc_init and of the process handshake: which format the messages
// use. batfill speaks JSON only (docs/protocol.md#format-and-flags).
inline constexpr unsigned kFormatBinary = 0x1;
inline constexpr unsigned kFormatJson = 0x2;

// The batprotocol version batfill writes in its EDCHello: the one Batsim 5.0.0-rc2 bundles.
inline constexpr const char* kBatprotocolVersion = "0.1.0";

// The EDCHelloEvent: who the decision component is and what it asks of Batsim.
struct EdcHello {
  std::string name;
  std::string version;
  std::string commit;
  // Batsim then puts each job's profile in JobSubmitted (the clairvoyant predictor's runtime).
  bool forward_profiles_on_job_submission = false;
};

struct ParsedMessage {
  Message message;
  std::vector<std::string>
      ignored;  // "event 3 (ProbeDataEmittedEvent): ignored" per event left out
  // For each event of `message`, where it was in the Batsim 5 message and its type there.
  struct Origin {
    std::size_t index = 0;
    std::string type;
  };
  std::vector<Origin> origins;
};

// Throws ProtocolError naming the event (index and type) and the field for malformed JSON, a
// missing or mistyped field, an unknown event type, and events batfill never handles (probes
// asked by the EDC, profiles other than delay ones, fork-join kill progress). A trailing NUL, as
// Batsim sends its C strings, is accepted.
ParsedMessage decode(std::string_view json);

// Throws std::invalid_argument for a value Batsim 5 cannot express (an estimate_waiting_time
// query or answer, SET_JOB_METADATA, continue_registration, a registered profile other than a
// delay one, a time that is "never", an empty allocation).
std::string encode(const Message& message);

// The reply that stops a real Batsim 5.0.0-rc2 at once with `what` in its error: a message its
// flatbuffers parser refuses, naming an unknown field that holds the error (docs/protocol.md
// "Quirks of the real 5.0.0-rc2"), stop_notice_text(what).
std::string write_stop_notice(const std::string& what);
// The notice of such a reply, written by batfill serve at the other end; nullopt for any other.
std::optional<std::string> read_stop_notice(std::string_view json);

// A message holding only an EDCHello, at time 0, as batsim_edc_init replies.
std::string encode_hello(const EdcHello& hello);
// The EDCHello of such a message; throws ProtocolError if it holds anything else.
EdcHello decode_hello(std::string_view json);

}  // namespace batfill::protocol::batsim5
