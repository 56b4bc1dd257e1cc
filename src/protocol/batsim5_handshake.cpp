#include "batfill/protocol/batsim5_handshake.hpp"

#include <cstring>
#include <stdexcept>

namespace batfill::protocol::batsim5 {
namespace {

// A native-endian u32, then `bytes`: the shape of both handshake messages.
std::string with_word(std::uint32_t word, std::string_view bytes) {
  std::string framed(sizeof word, '\0');
  std::memcpy(framed.data(), &word, sizeof word);
  framed.append(bytes);
  return framed;
}

std::uint32_t leading_word(std::string_view framed, const char* message, const char* word_name) {
  std::uint32_t word = 0;
  if (framed.size() < sizeof word) {
    throw std::invalid_argument(std::string(message) + " has " + std::to_string(framed.size()) +
                                " bytes, fewer than its 4-byte " + word_name);
  }
  std::memcpy(&word, framed.data(), sizeof word);
  return word;
}

}  // namespace

std::string init_request(std::string_view init) {
  return with_word(static_cast<std::uint32_t>(init.size()), init);
}

std::string_view init_of_handshake(std::string_view request) {
  const std::uint32_t length = leading_word(request, "the init message", "length");
  if (length != request.size() - sizeof length) {
    throw std::invalid_argument("the init message announces " + std::to_string(length) +
                                " bytes of init string but holds " +
                                std::to_string(request.size() - sizeof length) +
                                " (is Batsim 4 talking to --protocol batsim5?)");
  }
  return request.substr(sizeof length);
}

std::string handshake_reply(std::uint32_t flags, std::string_view message) {
  return with_word(flags, message);
}

HandshakeReply read_handshake_reply(std::string_view reply) {
  HandshakeReply read;
  read.flags = leading_word(reply, "the reply to the init message", "flags word");
  read.message = reply.substr(sizeof read.flags);
  return read;
}

}  // namespace batfill::protocol::batsim5
