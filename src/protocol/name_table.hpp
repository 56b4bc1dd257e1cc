#pragma once
// A codec's table of names: each value of the model (messages.hpp) and the name one protocol
// gives it, looked up both ways. Private to src/protocol.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace batfill::protocol::wire {

// The name `table` gives `value`.
template <typename Value, std::size_t N>
constexpr const char* name_of(const std::array<std::pair<Value, const char*>, N>& table,
                              Value value) {
  for (const auto& [known, name] : table) {
    if (known == value) return name;
  }
  return "";
}

// The value `table` names `name`, if any.
template <typename Value, std::size_t N>
std::optional<Value> value_named(const std::array<std::pair<Value, const char*>, N>& table,
                                 std::string_view name) {
  for (const auto& [value, known] : table) {
    if (name == known) return value;
  }
  return std::nullopt;
}

// The names of `table`, joined for an error message.
template <typename Value, std::size_t N>
std::string names_of(const std::array<std::pair<Value, const char*>, N>& table) {
  std::string names;
  for (const auto& entry : table) names += (names.empty() ? "" : ", ") + std::string(entry.second);
  return names;
}

}  // namespace batfill::protocol::wire
