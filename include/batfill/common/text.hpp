#pragma once
// Small text helpers for error messages, shared by every layer.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace batfill {

// At most about `width` bytes of `text` around byte `offset`, quoted, with "..." where cut and
// control bytes shown as \xHH, then where it is: errors quote inputs of any size (an init string
// of megabytes, a raw binary message) in one short line. The whole text when it is short.
std::string excerpt(std::string_view text, std::size_t offset = 0, std::size_t width = 60);

// 'text', as error messages name inputs and values; an excerpt of a long one, so that no
// message echoes megabytes of input.
inline std::string quoted(std::string_view text) {
  constexpr std::size_t kLongest = 200;
  if (text.size() > kLongest) return excerpt(text, 0, kLongest);
  return "'" + std::string(text) + "'";
}

// The names separated by `separator`: the lists of valid choices that errors give.
inline std::string join(const std::vector<std::string>& names, std::string_view separator = ", ") {
  std::string text;
  for (const std::string& name : names) {
    if (!text.empty()) text += separator;
    text += name;
  }
  return text;
}

// "1 job", "2 jobs": a count with its noun, plural by an added 's'.
std::string count_of(long long count, std::string_view noun);

// The shortest plain decimal text that reads back as `value` ("1.3", "1e-300" when no plain
// text is short enough), for values echoed in messages and summaries.
std::string shortest_text(double value);

// The UTF-8 byte-order mark some editors put before a CSV's header: readers name it rather than
// call the header wrong.
inline bool starts_with_byte_order_mark(std::string_view text) {
  return text.substr(0, 3) == "\xEF\xBB\xBF";
}

}  // namespace batfill
