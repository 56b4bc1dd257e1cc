#include "batfill/common/json_document.hpp"

#include <rapidjson/error/en.h>

#include <charconv>
#include <system_error>

#include "batfill/common/text.hpp"

namespace batfill {
namespace {

bool is_integer_text(std::string_view text) {
  return text.find_first_of(".eE") == std::string_view::npos;
}

// Out of a double's range: beyond the largest (positive decimal magnitude) or below the
// smallest denormal. The magnitude is the position of the first significant digit relative to
// the decimal point, plus the exponent.
bool overflows(std::string_view text) {
  const std::size_t exponent_at = text.find_first_of("eE");
  const std::string_view mantissa = text.substr(0, exponent_at);
  long long magnitude = 0;
  const std::size_t point = mantissa.find('.');
  const std::size_t integer_end = point == std::string_view::npos ? mantissa.size() : point;
  const std::size_t first = mantissa.find_first_of("123456789");
  if (first == std::string_view::npos) return false;  // zero never overflows
  magnitude = first < integer_end ? static_cast<long long>(integer_end - first)
                                  : -static_cast<long long>(first - integer_end) + 1;
  if (exponent_at != std::string_view::npos) {
    std::string_view exponent = text.substr(exponent_at + 1);
    if (!exponent.empty() && exponent.front() == '+') exponent.remove_prefix(1);
    long long value = 0;
    const auto parsed = std::from_chars(exponent.data(), exponent.data() + exponent.size(), value);
    // An exponent beyond 64 bits is far out of range either way; its sign decides which way.
    if (parsed.ec == std::errc::result_out_of_range) return exponent.front() != '-';
    magnitude += value;
  }
  return magnitude > 0;
}

}  // namespace

JsonNumber convert_json_number(std::string_view text) {
  JsonNumber number;
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (is_integer_text(text)) {
    if (text.front() == '-') {
      if (std::from_chars(begin, end, number.int64).ec == std::errc()) {
        number.kind = JsonNumber::Kind::kInt64;
        return number;
      }
    } else if (std::from_chars(begin, end, number.uint64).ec == std::errc()) {
      number.kind = JsonNumber::Kind::kUint64;
      return number;
    }
  }
  const std::from_chars_result parsed = std::from_chars(begin, end, number.real);
  if (parsed.ec == std::errc::result_out_of_range) {
    if (overflows(text)) {
      number.kind = JsonNumber::Kind::kTooBig;
    } else {
      number.real = text.front() == '-' ? -0.0 : 0.0;
    }
  }
  return number;
}

std::string json_error_text(const rapidjson::ParseResult& result, std::string_view text) {
  const std::size_t offset = result.Offset();
  const std::string why = offset < text.size() && text[offset] == '\0'
                              ? "a NUL byte, and the text goes on after it"
                              : rapidjson::GetParseError_En(result.Code());
  return "not JSON at byte " + std::to_string(offset) + " (" + why + "): " + excerpt(text, offset);
}

}  // namespace batfill
