#pragma once
// An external scheduler (batsched, pybatsim, `batfill serve`, ...) seen from the embedded
// simulator: the simulator plays Batsim's part, so this side owns the REQ socket and connects
// (docs/protocol.md#transport).

#include <chrono>
#include <memory>
#include <string>

#include "batfill/protocol/decision_process.hpp"

namespace batfill::transport {

class ReqChannel;

class RemoteDecisionProcess : public protocol::DecisionProcess {
 public:
  // Connects to `endpoint` (e.g. "tcp://127.0.0.1:28000"); ZeroMQ connects in the background,
  // so the scheduler may start later. Throws std::runtime_error for an invalid endpoint.
  explicit RemoteDecisionProcess(std::string endpoint,
                                 std::chrono::milliseconds timeout = std::chrono::hours(1));
  ~RemoteDecisionProcess() override;

  // write_message -> send -> wait at most `timeout` for the reply -> parse_message.
  // Throws std::runtime_error naming the endpoint on timeout (the socket is then unusable) and
  // ProtocolError for a reply that cannot be parsed.
  protocol::Message exchange(const protocol::Message& request) override;

  const std::string& endpoint() const;

 private:
  std::unique_ptr<ReqChannel> channel_;
};

}  // namespace batfill::transport
