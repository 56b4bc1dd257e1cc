#pragma once
// A Batsim 5 External Decision Component run as a process (`batfill serve --protocol batsim5`,
// Batsim's process-edc, a pybatsim 4 scheduler, ...) seen from the embedded simulator, which
// plays Batsim 5's part: it connects a REQ socket, sends the init message of the handshake,
// then Batsim's events in batprotocol JSON
// (docs/protocol.md#the-stand-in-driving-a-process-edc). EdcLibrary's twin over a socket.

#include <chrono>
#include <memory>
#include <string>

#include "batfill/protocol/batsim5_codec.hpp"
#include "batfill/protocol/decision_process.hpp"

namespace batfill::transport {

class ReqChannel;

class EdcProcess : public protocol::DecisionProcess {
 public:
  // Connects to `endpoint` and does the handshake with `init`, waiting at most `timeout` for
  // each reply. Throws std::runtime_error naming the endpoint when the EDC does not answer,
  // answers the handshake with something other than the JSON flag and an EDCHello, or is a
  // Batsim 4 scheduler.
  EdcProcess(std::string endpoint, const std::string& init,
             std::chrono::milliseconds timeout = std::chrono::hours(1));
  ~EdcProcess() override;

  // Throws std::runtime_error when the EDC does not answer, or its reply is not a valid message
  // of decisions the stand-in simulates.
  protocol::Message exchange(const protocol::Message& request) override;

  const protocol::batsim5::EdcHello& hello() const { return hello_; }
  const std::string& endpoint() const;

 private:
  std::unique_ptr<ReqChannel> channel_;
  protocol::batsim5::EdcHello hello_;
  long index_ = 0;  // requests numbered from 0, for errors
};

}  // namespace batfill::transport
