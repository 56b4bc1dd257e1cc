#pragma once
// A Batsim 4 simulation (docs/protocol.md "Message envelope" to "Events batfill writes"): each
// request text from Batsim gets its reply text from one BatsimAdapter, through the JSON codec.

#include <string>
#include <string_view>

#include "batfill/adapter/batsim_adapter.hpp"
#include "batfill/adapter/session.hpp"

namespace batfill::adapter {

class Batsim4Session : public Session {
 public:
  // Throws std::invalid_argument for settings that cannot run.
  Batsim4Session(const Settings& settings, Log log);

  // Parses the request, runs one exchange and writes the reply, as NumberedRequest logs and
  // reports it. Throws RequestError; a Batsim 5 handshake as the first request is named so.
  std::string reply_to(std::string_view request) override;
  bool finished() const override { return adapter_.finished(); }
  std::string next_request() const override { return "message #" + std::to_string(index_); }
  // Batsim 4's notice, or Batsim 5's after the handshake of a Batsim 5 that came here.
  std::string stop_notice(const std::string& what) const override;
  Protocol protocol() const override { return Protocol::kBatsim4; }

 private:
  Log log_;
  BatsimAdapter adapter_;
  long index_ = 0;             // the next request's number (NumberedRequest)
  bool batsim5_peer_ = false;  // the first request was Batsim 5's handshake
};

}  // namespace batfill::adapter
