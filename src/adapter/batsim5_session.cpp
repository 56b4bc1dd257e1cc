#include "batfill/adapter/batsim5_session.hpp"

#include <cstring>
#include <memory>
#include <stdexcept>

#include "batfill/adapter/batsim5_responder.hpp"
#include "batfill/adapter/responder.hpp"
#include "batfill/protocol/batsim5_codec.hpp"

namespace batfill::adapter {
namespace {

constexpr const char* kPrefix = "batfill serve: ";

// `what` without the message that follows its first line.
std::string first_line(const std::string& what) { return what.substr(0, what.find('\n')); }

// Sends the stop notice; Batsim may be gone already, which changes nothing.
void stop_batsim(RequestChannel& channel, const std::string& what) {
  (void)channel.send(batsim5_stop_notice(first_line(what)));
}

// The next request, or how the session ends without one.
bool receive(RequestChannel& channel, std::string& request, const std::string& which,
             std::ostream& errors, SessionEnd& end) {
  std::string problem;
  switch (channel.receive(request, problem)) {
    case RequestChannel::Received::kRequest:
      return true;
    case RequestChannel::Received::kTimeout:
      errors << kPrefix << "timed out waiting for " << which << " from Batsim on "
             << channel.name() << "; is it still running?\n";
      end = SessionEnd::kTimeout;
      return false;
    case RequestChannel::Received::kPeerLost:
      errors << kPrefix << "Batsim closed the connection on " << channel.name() << " before "
             << which << ": it exited or crashed (docs/protocol.md §1.4)\n";
      end = SessionEnd::kChannelError;
      return false;
    case RequestChannel::Received::kError:
      break;
  }
  errors << kPrefix << "receiving " << which << ": " << problem << '\n';
  end = SessionEnd::kChannelError;
  return false;
}

bool send(RequestChannel& channel, std::string_view reply, const std::string& which,
          std::ostream& errors) {
  if (channel.send(reply)) return true;
  errors << kPrefix << "Batsim closed the connection on " << channel.name()
         << " while replying to " << which << ": it exited or crashed (docs/protocol.md §1.4)\n";
  return false;
}

// The handshake; null (and `end` set) when it failed.
std::unique_ptr<Batsim5Responder> handshake(RequestChannel& channel,
                                            const Batsim5ServeSettings& settings,
                                            const Log& log, std::ostream& errors,
                                            SessionEnd& end) {
  std::string request;
  if (!receive(channel, request, "the init message", errors, end)) return nullptr;
  std::unique_ptr<Batsim5Responder> responder;
  try {
    responder = std::make_unique<Batsim5Responder>(settings.policy, settings.scheduler, log,
                                                   settings.batching, init_of_handshake(request));
  } catch (const std::exception& e) {
    errors << kPrefix << "init message: " << e.what() << '\n';
    // In the handshake's shape, flags first: Batsim then parses the notice as JSON.
    (void)channel.send(handshake_reply(protocol::batsim5::kFormatJson,
                                       batsim5_stop_notice(first_line(e.what()))));
    end = SessionEnd::kProtocolError;
    return nullptr;
  }
  if (!send(channel, handshake_reply(protocol::batsim5::kFormatJson, responder->hello()),
            "the init message", errors)) {
    end = SessionEnd::kChannelError;
    return nullptr;
  }
  return responder;
}

}  // namespace

std::string_view init_of_handshake(std::string_view request) {
  std::uint32_t length = 0;
  if (request.size() < sizeof length) {
    throw std::invalid_argument("the init message has " + std::to_string(request.size()) +
                                " bytes, fewer than its 4-byte length");
  }
  std::memcpy(&length, request.data(), sizeof length);
  if (length != request.size() - sizeof length) {
    throw std::invalid_argument("the init message announces " + std::to_string(length) +
                                " bytes of init string but holds " +
                                std::to_string(request.size() - sizeof length) +
                                " (is Batsim 4 talking to --protocol batsim5?)");
  }
  return request.substr(sizeof length);
}

std::string handshake_reply(std::uint32_t flags, std::string_view hello) {
  std::string reply(sizeof flags, '\0');
  std::memcpy(reply.data(), &flags, sizeof flags);
  reply.append(hello);
  return reply;
}

std::string batsim5_stop_notice(const std::string& what) {
  std::string field = "batfill error: ";
  for (const char c : what.substr(0, 500)) {
    const bool plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    field += plain ? c : ' ';
  }
  return R"({"now":0.0,"events":[],")" + field + R"(":0})";
}

SessionEnd serve_batsim5(RequestChannel& channel, const Batsim5ServeSettings& settings,
                         std::ostream& errors) {
  const Log log(settings.verbosity, errors);
  log.info("waiting for Batsim 5 on " + channel.name());
  SessionEnd end = SessionEnd::kDone;
  const std::unique_ptr<Batsim5Responder> responder =
      handshake(channel, settings, log, errors, end);
  if (responder == nullptr) return end;
  for (long index = 0; !responder->finished(); ++index) {
    const std::string which = "message #" + std::to_string(index);
    std::string request;
    if (!receive(channel, request, which, errors, end)) return end;
    std::string reply;
    try {
      reply = responder->reply_to(request);
    } catch (const RequestError& e) {
      errors << kPrefix << e.what() << '\n';
      stop_batsim(channel, e.what());
      return SessionEnd::kProtocolError;
    }
    if (!send(channel, reply, which, errors)) return SessionEnd::kChannelError;
  }
  return SessionEnd::kDone;
}

}  // namespace batfill::adapter
