// read_workload: loads a file (gunzipping it if needed) and hands it to the reader of its format.

#include "batfill/workload/workload.hpp"

#include <algorithm>
#include <boost/iostreams/copy.hpp>
#include <boost/iostreams/device/array.hpp>
#include <boost/iostreams/device/back_inserter.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "reader_support.hpp"

namespace batfill::workload {
namespace {

enum class Format { kSwf, kBatsimJson, kDrevtCsv };

std::string load_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw std::runtime_error("cannot read workload '" + path + "': it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error("cannot open workload '" + path + "': " + std::strerror(errno));
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read workload '" + path + "'");
  return std::move(bytes).str();
}

// Gzip is recognised by its magic bytes so that a compressed trace works whatever its name.
bool is_gzip(const std::string& bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzip(const std::string& path, const std::string& compressed) {
  namespace io = boost::iostreams;
  try {
    io::filtering_istream in;
    in.push(io::gzip_decompressor());
    in.push(io::array_source(compressed.data(), compressed.size()));
    std::string text;
    io::copy(in, io::back_inserter(text));
    return text;
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot decompress workload '" + path + "': " + e.what());
  }
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::optional<Format> format_from_extension(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ends_with(name, ".gz")) name.resize(name.size() - 3);
  if (ends_with(name, ".swf")) return Format::kSwf;
  if (ends_with(name, ".json")) return Format::kBatsimJson;
  if (ends_with(name, ".csv")) return Format::kDrevtCsv;
  return std::nullopt;
}

// For files named otherwise: a JSON object, a DR_EVT header, or SWF comments/records.
std::optional<Format> format_from_content(const std::string& text) {
  const std::string_view start = detail::trim(std::string_view(text).substr(0, 4096));
  if (start.empty()) return std::nullopt;
  if (start.front() == '{') return Format::kBatsimJson;
  if (start.rfind("job_submit_time", 0) == 0) return Format::kDrevtCsv;
  if (start.front() == ';' || std::isdigit(static_cast<unsigned char>(start.front()))) {
    return Format::kSwf;
  }
  return std::nullopt;
}

}  // namespace

Workload read_workload(const std::string& path, const ReadOptions& options) {
  std::string text = load_file(path);
  if (is_gzip(text)) text = gunzip(path, text);

  std::optional<Format> format = format_from_extension(path);
  if (!format) format = format_from_content(text);
  if (!format) {
    throw std::runtime_error("unknown workload format for '" + path +
                             "': expected SWF (.swf, .swf.gz), Batsim JSON (.json) or DR_EVT "
                             "CSV (.csv)");
  }
  switch (*format) {
    case Format::kSwf:
      return read_swf(path, text, options);
    case Format::kBatsimJson:
      return read_batsim_json(path, text);
    case Format::kDrevtCsv:
      return read_drevt_csv(path, text);
  }
  throw std::logic_error("unhandled workload format");
}

}  // namespace batfill::workload
