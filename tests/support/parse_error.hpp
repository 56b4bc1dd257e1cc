#pragma once
// The text of the ProtocolError a message raises, or "(no error)": for tests of bad messages.

#include <string>

#include "batfill/protocol/codec.hpp"

namespace batfill::testing {

inline std::string parse_error_of(const std::string& json) {
  try {
    protocol::parse_message(json);
  } catch (const protocol::ProtocolError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace batfill::testing
