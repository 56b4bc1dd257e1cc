#pragma once
// The one way batfill parses a JSON text into a RapidJSON document (workloads, Batsim messages,
// options): iterative, so that nesting never recurses; validating, so that strings are UTF-8;
// and with every number read exactly. RapidJSON 1.1.0's default number parser may land one ulp
// away from the nearest double (1.0e77 becomes 1.0000000000000001e77, and a time such as
// 2.0000005 s may round to the other microsecond), and its full-precision parser mis-scales
// some long mantissas. So numbers reach the document through their text, converted here with a
// correctly rounded conversion (docs/protocol.md#what-a-request-must-satisfy,
// docs/semantics.md#time).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <rapidjson/document.h>
#include <rapidjson/reader.h>

namespace batfill {

// How one JSON number text converts: the kinds RapidJSON's own reader would report.
struct JsonNumber {
  enum class Kind { kInt64, kUint64, kDouble, kTooBig };
  Kind kind = Kind::kDouble;
  std::int64_t int64 = 0;
  std::uint64_t uint64 = 0;
  double real = 0.0;
};

// `text` is a number as the JSON grammar has it (the reader checked it): an integer that fits
// 64 bits stays an integer; anything else is the nearest double, ±0 on underflow, and kTooBig
// beyond the largest double.
JsonNumber convert_json_number(std::string_view text);

namespace json_detail {

// Forwards the reader's events to a document, turning each number's text into its value.
template <typename Document>
class ExactNumbers {
 public:
  using Ch = char;
  explicit ExactNumbers(Document& document) : document_(document) {}
  bool too_big() const { return too_big_; }

  bool Null() { return document_.Null(); }
  bool Bool(bool b) { return document_.Bool(b); }
  bool Int(int i) { return document_.Int(i); }
  bool Uint(unsigned u) { return document_.Uint(u); }
  bool Int64(std::int64_t i) { return document_.Int64(i); }
  bool Uint64(std::uint64_t u) { return document_.Uint64(u); }
  bool Double(double d) { return document_.Double(d); }
  bool RawNumber(const Ch* text, rapidjson::SizeType length, bool) {
    const JsonNumber number = convert_json_number(std::string_view(text, length));
    switch (number.kind) {
      case JsonNumber::Kind::kInt64:
        return document_.Int64(number.int64);
      case JsonNumber::Kind::kUint64:
        return document_.Uint64(number.uint64);
      case JsonNumber::Kind::kDouble:
        return document_.Double(number.real);
      case JsonNumber::Kind::kTooBig:
        break;
    }
    too_big_ = true;
    return false;
  }
  bool String(const Ch* text, rapidjson::SizeType length, bool copy) {
    return document_.String(text, length, copy);
  }
  bool StartObject() { return document_.StartObject(); }
  bool Key(const Ch* text, rapidjson::SizeType length, bool copy) {
    return document_.Key(text, length, copy);
  }
  bool EndObject(rapidjson::SizeType members) { return document_.EndObject(members); }
  bool StartArray() { return document_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) { return document_.EndArray(elements); }

 private:
  Document& document_;
  bool too_big_ = false;
};

}  // namespace json_detail

// Parses `text` into `document`; the result says where the text is not JSON. A number beyond
// the largest double is kParseErrorNumberTooBig at the number's first character.
template <typename Document>
rapidjson::ParseResult parse_json(Document& document, std::string_view text) {
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag |
                              rapidjson::kParseValidateEncodingFlag |
                              rapidjson::kParseNumbersAsStringsFlag;
  rapidjson::ParseResult result;
  auto generate = [&](Document& handler) {
    json_detail::ExactNumbers<Document> numbers(handler);
    rapidjson::MemoryStream bytes(text.data(), text.size());
    rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> stream(bytes);
    rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>> reader;
    result = reader.Parse<kFlags>(stream, numbers);
    if (numbers.too_big()) result.Set(rapidjson::kParseErrorNumberTooBig, result.Offset());
    return !result.IsError();
  };
  document.Populate(generate);
  // RapidJSON's streams end at a NUL byte, so a text with one would be read only up to it: the
  // whole text is the input, and JSON has no raw NUL.
  if (const std::size_t nul = text.find('\0'); !result.IsError() && nul != text.npos) {
    result.Set(rapidjson::kParseErrorDocumentRootNotSingular, nul);
  }
  return result;
}

// Why `text` is not JSON, for an error message: the reason and the byte where parse_json
// stopped, with a short excerpt of the text around it (never the whole text).
std::string json_error_text(const rapidjson::ParseResult& result, std::string_view text);

}  // namespace batfill
