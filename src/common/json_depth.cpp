#include "batfill/common/json_depth.hpp"

#include <algorithm>

namespace batfill {

std::optional<std::size_t> find_excess_json_nesting(std::string_view text) {
  // Most texts (every Batsim message but a large SIMULATION_BEGINS) open fewer brackets in all
  // than the limit: a count, which the compiler vectorizes, settles them without the scan,
  // which cost `serve` as much as the JSON parse itself.
  const auto opening =
      std::count_if(text.begin(), text.end(), [](char c) { return c == '[' || c == '{'; });
  if (opening <= kMaxJsonDepth) return std::nullopt;
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character cannot close the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;  // unbalanced text is the parser's to report
    }
  }
  return std::nullopt;
}

}  // namespace batfill
