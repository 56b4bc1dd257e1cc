#include "batfill/adapter/batsim4_session.hpp"

#include "batfill/protocol/codec.hpp"

namespace batfill::adapter {

Batsim4Session::Batsim4Session(const Settings& settings, Log log)
    : log_(log),
      adapter_(settings.policy, settings.make_policy, settings.scheduler, log, settings.batching) {}

std::string Batsim4Session::reply_to(std::string_view request) {
  if (index_ == 0 && is_batsim5_handshake(request)) {
    batsim5_peer_ = true;
    throw RequestError(
        "message #0 is Batsim 5's init message: this is Batsim 5: use `batfill serve "
        "--protocol batsim5`");
  }
  const NumberedRequest numbered(log_, index_++, request);
  return numbered.reply([&] {
    const protocol::Message message = protocol::parse_message(request);
    numbered.log_parsed();
    return protocol::write_message(adapter_.exchange(message));
  });
}

std::string Batsim4Session::stop_notice(const std::string& what) const {
  if (batsim5_peer_) return stop_notice_in(Protocol::kBatsim5, true, what);
  return stop_notice_in(Protocol::kBatsim4, false, what);
}

}  // namespace batfill::adapter
