// read_workload: loads a file (gunzipping it if needed) and hands it to the reader of its format.

#include "batfill/workload/workload.hpp"
#include "batfill/workload/job_stream.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "reader_support.hpp"

namespace batfill::workload {
namespace {

enum class Format { kSwf, kBatsimJson, kDrevtCsv };

// The most text a workload may hold, compressed or not (docs/semantics.md#input-limits): the
// largest archive traces are a few hundred MB, and a bound keeps a hostile file from exhausting
// memory.
constexpr std::size_t kMaxWorkloadBytes = std::size_t{2} << 30;

std::string too_large(const std::string& path) {
  return "workload '" + path + "' is larger than 2 GiB (uncompressed), batfill's limit";
}

// `what` names the file in errors: "workload", "resize file".
std::string load_file(const std::string& path, const std::string& what = "workload") {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw std::runtime_error("cannot read " + what + " '" + path + "': it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error("cannot open " + what + " '" + path + "': " + std::strerror(errno));
  }
  // One read into a buffer of the file's size: streaming through a stringstream copied the
  // bytes twice.
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0 || !in) throw std::runtime_error("cannot read " + what + " '" + path + "'");
  if (static_cast<std::uintmax_t>(size) > kMaxWorkloadBytes)
    throw std::runtime_error(too_large(path));
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.read(bytes.data(), size);
  if (in.gcount() != size) throw std::runtime_error("cannot read " + what + " '" + path + "'");
  return bytes;
}

// Gzip is recognised by its magic bytes so that a compressed trace works whatever its name.
bool is_gzip(const std::string& bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

// The reason given for any corrupt gzip data: the wording of Boost.Iostreams, which this reader
// used before, kept so that error messages stay the same.
constexpr const char* kCorruptGzip = "gzip error: iostream error";

// Deflate expands at most about 1032 times; a trailer claiming more lies.
constexpr std::size_t kMaxDeflateRatio = 1032;

// A gzip file ends with its uncompressed size modulo 2^32 (of its last member): a first guess
// for the output buffer, which then rarely needs to grow. Never trusted beyond what the
// compressed bytes can produce: a 46-byte file may claim 4 GiB.
std::size_t uncompressed_size_hint(const std::string& compressed) {
  if (compressed.size() < 18) return compressed.size();
  const auto byte = [&](std::size_t i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(compressed[i]));
  };
  const std::size_t end = compressed.size();
  const std::size_t claimed =
      byte(end - 4) | byte(end - 3) << 8 | byte(end - 2) << 16 | byte(end - 1) << 24;
  return std::min({claimed, compressed.size() * kMaxDeflateRatio, kMaxWorkloadBytes});
}

// Inflates all gzip members (a concatenation of gzip files is one gzip file) straight into
// one buffer, without a stream layer: Boost.Iostreams cost more than the decompression itself.
// zlib checks each member's CRC and size.
std::string gunzip(const std::string& path, const std::string& compressed) {
  z_stream stream{};
  // 16 + MAX_WBITS: expect a gzip header and trailer, not a raw zlib stream.
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {
    throw std::runtime_error("cannot decompress workload '" + path + "': " + kCorruptGzip);
  }
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());  // load_file bounds it below 4 GB
  std::string text(std::max<std::size_t>(uncompressed_size_hint(compressed), 1 << 16), '\0');
  std::size_t produced = 0;
  int status = Z_OK;
  while (true) {
    if (produced == text.size()) {
      if (produced >= kMaxWorkloadBytes) {
        inflateEnd(&stream);
        throw std::runtime_error("cannot decompress " + too_large(path));
      }
      text.resize(std::min(text.size() * 2, kMaxWorkloadBytes));
    }
    stream.next_out = reinterpret_cast<Bytef*>(text.data() + produced);
    stream.avail_out = static_cast<uInt>(std::min<std::size_t>(text.size() - produced, UINT32_MAX));
    const uInt room = stream.avail_out;
    status = inflate(&stream, Z_NO_FLUSH);
    produced += room - stream.avail_out;
    if (status == Z_STREAM_END) {
      if (stream.avail_in == 0) break;
      inflateReset(&stream);  // another member follows
    } else if (status != Z_OK) {
      break;  // corrupt data, or input that ends inside a member (Z_BUF_ERROR)
    }
  }
  inflateEnd(&stream);
  if (status != Z_STREAM_END) {
    throw std::runtime_error("cannot decompress workload '" + path + "': " + kCorruptGzip);
  }
  text.resize(produced);
  return text;
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

void add_resize_requests(const std::string& path, Workload& workload) {
  add_resize_requests(path, load_file(path, "resize file"), workload);
}

std::unique_ptr<JobStream> open_job_stream(const std::string& path, const ReadOptions& options) {
  std::error_code error;
  const std::optional<Format> format = format_from_extension(path);
  if (format && std::filesystem::is_regular_file(path, error)) {
    std::unique_ptr<JobStream> stream;
    if (*format == Format::kSwf) stream = stream_swf(path, options);
    if (*format == Format::kDrevtCsv) stream = stream_drevt_csv(path);
    if (stream) return stream;
  }
  return std::make_unique<WorkloadJobStream>(read_workload(path, options));
}

}  // namespace batfill::workload
