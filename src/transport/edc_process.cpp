#include "batfill/transport/edc_process.hpp"

#include <stdexcept>

#include "batfill/protocol/batsim5_handshake.hpp"
#include "edc_exchange.hpp"
#include "req_channel.hpp"

namespace batfill::transport {

EdcProcess::EdcProcess(std::string endpoint, const std::string& init,
                       std::chrono::milliseconds timeout)
    : channel_(std::make_unique<ReqChannel>(std::move(endpoint), timeout)) {
  const std::string edc = "the EDC process at " + channel_->endpoint();
  const std::string reply = channel_->request(protocol::batsim5::init_request(init));
  try {
    const protocol::batsim5::HandshakeReply read = protocol::batsim5::read_handshake_reply(reply);
    require_json_format(read.flags, edc);
    hello_ = protocol::batsim5::decode_hello(read.message);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(edc + ": " + e.what() + " (is it a Batsim 4 scheduler?)");
  } catch (const protocol::ProtocolError& e) {
    const auto notice =
        protocol::batsim5::read_stop_notice(protocol::batsim5::read_handshake_reply(reply).message);
    if (notice) throw std::runtime_error(edc + " refused the init message: " + *notice);
    throw std::runtime_error(edc + ": its reply to the init message: " + e.what());
  }
}

EdcProcess::~EdcProcess() = default;

protocol::Message EdcProcess::exchange(const protocol::Message& request) {
  const long index = index_++;
  // A C string with its NUL, as Batsim 5 sends it: EDCs written in C read to the NUL.
  std::string text = edc_request(request, hello_);
  text.push_back('\0');
  const std::string reply = channel_->request(text);
  return edc_decisions(reply, "the EDC process at " + channel_->endpoint() + ", message #" +
                                  std::to_string(index));
}

const std::string& EdcProcess::endpoint() const { return channel_->endpoint(); }

}  // namespace batfill::transport
