// The framing of Batsim 5's process handshake, both ends (docs/protocol.md, "Process mode and
// its handshake"): what one end writes, the other reads back; short or inconsistent frames are
// refused with their sizes.

#include "batfill/protocol/batsim5_handshake.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

#include "batfill/protocol/batsim5_codec.hpp"

namespace batfill::protocol::batsim5 {
namespace {

TEST(Batsim5Handshake, InitRequestCarriesItsLengthAndReadsBack) {
  const std::string request = init_request(R"({"backfill":"easy"})");
  std::uint32_t length = 0;
  std::memcpy(&length, request.data(), sizeof length);
  EXPECT_EQ(length, 19u);  // {"backfill":"easy"} is 19 characters
  EXPECT_EQ(request.size(), 23u);
  EXPECT_EQ(init_of_handshake(request), R"({"backfill":"easy"})");
  EXPECT_EQ(init_of_handshake(init_request("")), "");
}

TEST(Batsim5Handshake, ReplyCarriesTheFlagsAndReadsBack) {
  const HandshakeReply read = read_handshake_reply(handshake_reply(kFormatJson, "{}"));
  EXPECT_EQ(read.flags, kFormatJson);
  EXPECT_EQ(read.message, "{}");
}

TEST(Batsim5Handshake, ShortOrInconsistentFramesAreRefused) {
  try {
    read_handshake_reply("ab");
    FAIL() << "a 2-byte reply was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "the reply to the init message has 2 bytes, fewer than its 4-byte flags word");
  }
  std::string request = init_request("{}");
  request.push_back('x');
  try {
    init_of_handshake(request);
    FAIL() << "a request longer than its length was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("announces 2 bytes of init string but holds 3"),
              std::string::npos)
        << e.what();
  }
}

TEST(Batsim5Handshake, AStopNoticeReadsBackAndNothingElseIsOne) {
  EXPECT_EQ(read_stop_notice(write_stop_notice("bad \"init\"")), "batfill error: bad  init ");
  EXPECT_EQ(read_stop_notice(encode_hello({"x", "1", "", false})), std::nullopt);
  EXPECT_EQ(read_stop_notice("not json"), std::nullopt);
}

}  // namespace
}  // namespace batfill::protocol::batsim5
