#pragma once
// batfill as a Batsim 5 External Decision Component (docs/protocol.md "Batsim 5
// (batprotocol)"): the init string, the EDCHello, and each request text of Batsim 5 answered by
// one BatsimAdapter through the Batsim 5 codec. The EDC library (libbatfill_edc.so) calls
// initialise() and decide(); `batfill serve --protocol batsim5` calls reply_to(), whose first
// request is the process handshake: a native-endian u32 length and the init string's bytes,
// answered by a native-endian u32 of format flags and the message holding the EDCHello.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "batfill/adapter/batsim_adapter.hpp"
#include "batfill/adapter/session.hpp"

namespace batfill::adapter {

// The settings an init string gives over `base`, checked: the same JSON object as Batsim 4's
// --sched-cfg (settings.hpp), "" or {} for none. Batsim's example EDCs take a key
// `format_json`; batfill accepts it when true (it speaks JSON only) and refuses false. Throws
// std::invalid_argument naming the key, or the settings that do not combine with `base`.
struct InitSettings {
  Settings settings;
  bool forward_profiles = false;  // the predictor in force reads the jobs' delay profiles
};
InitSettings read_init_string(std::string_view init, const Settings& base);


class Batsim5Session : public Session {
 public:
  // Throws std::invalid_argument for settings that cannot run.
  Batsim5Session(const Settings& settings, Log log);

  // Reads the init string (it overrides the settings key by key); the message holding
  // batfill's EDCHello. Throws std::invalid_argument for a bad init string.
  const std::string& initialise(std::string_view init);
  // After initialise() (else it throws RequestError): decodes the request, runs one exchange and encodes the reply, logging
  // ignored events. Throws RequestError naming the message index, the event and the field.
  std::string decide(std::string_view request);

  // The handshake first, then decide(). Throws RequestError.
  std::string reply_to(std::string_view request) override;
  bool finished() const override { return adapter_ != nullptr && adapter_->finished(); }
  std::string next_request() const override;
  // Batsim 5's notice (after the flags word while the handshake is pending), or Batsim 4's
  // for a Batsim 4 that came here.
  std::string stop_notice(const std::string& what) const override;
  Protocol protocol() const override { return Protocol::kBatsim5; }

 private:
  std::string handshake(std::string_view request);

  Settings settings_;  // the command line's; the init string's override them
  Log log_;
  std::unique_ptr<BatsimAdapter> adapter_;  // made at init, with the init string's settings
  bool batsim4_peer_ = false;               // the first request was a Batsim 4 message
  std::string hello_;
  long index_ = 0;  // the next request's number (NumberedRequest)
};

}  // namespace batfill::adapter
