#pragma once
// Small text helpers for error messages, shared by every layer.

#include <string>
#include <string_view>
#include <vector>

namespace batfill {

// 'text', as error messages name inputs and values.
inline std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// The names separated by `separator`: the lists of valid choices that errors give.
inline std::string join(const std::vector<std::string>& names, std::string_view separator = ", ") {
  std::string text;
  for (const std::string& name : names) {
    if (!text.empty()) text += separator;
    text += name;
  }
  return text;
}

}  // namespace batfill
