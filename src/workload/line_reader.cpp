#include "line_reader.hpp"

#include <cstring>
#include <stdexcept>

namespace batfill::workload::detail {
namespace {
// Large enough that reading costs one call per several thousand records.
constexpr std::size_t kChunk = 1 << 20;
}  // namespace

LineReader::LineReader(const std::string& path) : path_(path), buffer_(kChunk, '\0') {
  // gzopen reads plain files as they are, so one reader serves both.
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) throw std::runtime_error("cannot open workload '" + path + "'");
  gzbuffer(file_, 1 << 18);
}

LineReader::~LineReader() {
  if (file_ != nullptr) gzclose(file_);
}

bool LineReader::refill() {
  if (ended_) return false;
  // Keep the unread part, at the front, and make room after it.
  std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  if (end_ == buffer_.size()) buffer_.resize(2 * buffer_.size());  // a line longer than a chunk
  const int read = gzread(file_, buffer_.data() + end_, static_cast<unsigned>(buffer_.size() - end_));
  if (read < 0) {
    throw std::runtime_error("cannot decompress workload '" + path_ + "': gzip error: iostream error");
  }
  if (read == 0) {
    int error = Z_OK;
    gzerror(file_, &error);
    if (error != Z_OK) {
      throw std::runtime_error("cannot decompress workload '" + path_ +
                               "': gzip error: iostream error");
    }
    ended_ = true;
    return false;
  }
  end_ += static_cast<std::size_t>(read);
  return true;
}

bool LineReader::next(std::string_view& line) {
  while (true) {
    const std::string_view unread(buffer_.data() + begin_, end_ - begin_);
    const std::size_t newline = unread.find('\n');
    if (newline != std::string_view::npos) {
      line = unread.substr(0, newline);
      begin_ += newline + 1;
      break;
    }
    if (!refill()) {
      // A final line without a newline still counts; an empty remainder after one does not.
      if (begin_ == end_) return false;
      line = std::string_view(buffer_.data() + begin_, end_ - begin_);
      begin_ = end_;
      break;
    }
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++line_number_;
  return true;
}

}  // namespace batfill::workload::detail
