#include "batfill/transport/remote_decision_process.hpp"

#include "batfill/protocol/codec.hpp"
#include "req_channel.hpp"

namespace batfill::transport {

RemoteDecisionProcess::RemoteDecisionProcess(std::string endpoint,
                                             std::chrono::milliseconds timeout)
    : channel_(std::make_unique<ReqChannel>(std::move(endpoint), timeout)) {}

RemoteDecisionProcess::~RemoteDecisionProcess() = default;

protocol::Message RemoteDecisionProcess::exchange(const protocol::Message& request) {
  return protocol::parse_message(channel_->request(protocol::write_message(request)));
}

const std::string& RemoteDecisionProcess::endpoint() const { return channel_->endpoint(); }

}  // namespace batfill::transport
