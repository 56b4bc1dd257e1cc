#include "batfill/common/rejection.hpp"

namespace batfill {
namespace {
const std::string kNone;
}  // namespace

Rejection::Rejection(std::string position, std::string job_id, std::string why) {
  if (position.empty() && job_id.empty() && why.empty()) return;
  parts_ = std::make_unique<Parts>(Parts{std::move(position), std::move(job_id), std::move(why)});
}

Rejection::Rejection(const Rejection& other)
    : parts_(other.parts_ ? std::make_unique<Parts>(*other.parts_) : nullptr) {}

Rejection& Rejection::operator=(const Rejection& other) {
  if (this != &other) parts_ = other.parts_ ? std::make_unique<Parts>(*other.parts_) : nullptr;
  return *this;
}

const std::string& Rejection::position() const { return parts_ ? parts_->position : kNone; }
const std::string& Rejection::job_id() const { return parts_ ? parts_->job_id : kNone; }
const std::string& Rejection::why() const { return parts_ ? parts_->why : kNone; }

void Rejection::add_problem(const std::string& position, const std::string& more) {
  if (!parts_) {
    *this = Rejection(position, "", more);
  } else {
    parts_->why += "; " + more;
  }
}

std::string Rejection::text() const {
  if (!parts_) return "";
  std::string text;
  if (!parts_->position.empty()) text += parts_->position + ": ";
  if (!parts_->job_id.empty()) text += "job '" + parts_->job_id + "' ";
  return text + parts_->why;
}

}  // namespace batfill
