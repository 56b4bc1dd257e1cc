#pragma once
// A Batsim 5 External Decision Component library (batfill's own libbatfill_edc.so, Batsim's
// bundled libeasy.so, ...) seen from the embedded simulator, which plays Batsim 5's part: it
// loads the library, calls batsim_edc_init once, then batsim_edc_take_decisions for each
// request, in batprotocol's JSON format (docs/protocol.md#the-stand-in-driving-an-edc-library). A
// client of a decision process like RemoteDecisionProcess beside it: the messages travel through a
// C call instead of a socket.

#include <cstdint>
#include <string>

#include "batfill/protocol/batsim5_codec.hpp"
#include "batfill/protocol/decision_process.hpp"

namespace batfill::transport {

class EdcLibrary : public protocol::DecisionProcess {
 public:
  // Loads `path` and initialises it with `init`. Throws std::runtime_error naming the library
  // when it cannot be loaded, lacks a function, fails its init, asks for the binary format, or
  // replies something other than an EDCHello.
  EdcLibrary(const std::string& path, const std::string& init);
  ~EdcLibrary() override;
  EdcLibrary(const EdcLibrary&) = delete;
  EdcLibrary& operator=(const EdcLibrary&) = delete;

  // Throws std::runtime_error naming the library and the message when take_decisions fails or
  // its reply is not a valid message of decisions the stand-in simulates.
  protocol::Message exchange(const protocol::Message& request) override;

  const protocol::batsim5::EdcHello& hello() const { return hello_; }
  const std::string& path() const { return path_; }

 private:
  using TakeDecisions = std::uint8_t (*)(const std::uint8_t*, std::uint32_t, std::uint8_t**,
                                         std::uint32_t*);
  using Deinit = std::uint8_t (*)();

  std::string path_;
  void* handle_ = nullptr;
  TakeDecisions take_decisions_ = nullptr;
  Deinit deinit_ = nullptr;
  protocol::batsim5::EdcHello hello_;
  long index_ = 0;  // requests numbered from 0, for errors
};

}  // namespace batfill::transport
