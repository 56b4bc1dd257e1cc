#include "batfill/common/rejection.hpp"

namespace batfill {

std::string Rejection::text() const {
  std::string text;
  if (!position.empty()) text += position + ": ";
  if (!job_id.empty()) text += "job '" + job_id + "' ";
  return text + why;
}

}  // namespace batfill
