#include "batfill/protocol/protocol_error.hpp"

namespace batfill::protocol {

const char* ProtocolError::what() const noexcept {
  if (!text_.empty()) return text_.c_str();
  try {
    std::string text;
    if (message_) text = "message #" + std::to_string(*message_) + ": ";
    if (event_) {
      text += "event " + std::to_string(event_->index);
      if (!event_->type.empty()) text += " (" + event_->type + ")";
      text += ": ";
    }
    text_ = text + problem_;
  } catch (...) {
    return problem_.c_str();  // no memory for the whole text: the problem alone
  }
  return text_.c_str();
}

}  // namespace batfill::protocol
