#include "line_reader.hpp"

#include <cstring>
#include <stdexcept>

namespace batfill::workload::detail {
namespace {
// Large enough that reading costs one call per several thousand records.
constexpr std::size_t kChunk = 1 << 20;
}  // namespace

LineReader::LineReader(const std::string& path, Checksums checksums)
    : path_(path), file_(path, std::ios::binary), checksums_(checksums), buffer_(kChunk, '\0') {
  if (!file_) throw std::runtime_error("cannot open workload '" + path + "'");
  // Gzip is recognised by its magic bytes, as read_workload recognises it.
  char magic[2] = {0, 0};
  file_.read(magic, 2);
  const std::streamsize got = file_.gcount();
  gzip_ = got == 2 && static_cast<unsigned char>(magic[0]) == 0x1f &&
          static_cast<unsigned char>(magic[1]) == 0x8b;
  if (!gzip_) {
    buffer_.replace(0, static_cast<std::size_t>(got), magic, static_cast<std::size_t>(got));
    end_ = static_cast<std::size_t>(got);
    return;
  }
  compressed_.assign(magic, 2);
  // 16 + MAX_WBITS: expect a gzip header and trailer, not a raw zlib stream.
  if (inflateInit2(&inflater_, 16 + MAX_WBITS) != Z_OK) corrupt();
  if (checksums_ == Checksums::kAlreadyVerified) inflateValidate(&inflater_, 0);
  inflater_.next_in = reinterpret_cast<Bytef*>(compressed_.data());
  inflater_.avail_in = 2;
}

LineReader::~LineReader() {
  if (gzip_) inflateEnd(&inflater_);
}

void LineReader::reset_inflater() {
  inflateReset(&inflater_);
  if (checksums_ == Checksums::kAlreadyVerified) inflateValidate(&inflater_, 0);
}

void LineReader::corrupt() const {
  // read_workload's wording for any corrupt gzip data.
  throw std::runtime_error("cannot decompress workload '" + path_ +
                           "': gzip error: iostream error");
}

std::size_t LineReader::inflate_into(char* out, std::size_t room) {
  inflater_.next_out = reinterpret_cast<Bytef*>(out);
  inflater_.avail_out = static_cast<uInt>(room);
  while (inflater_.avail_out == room) {
    if (inflater_.avail_in == 0) {
      // Keep what is still to inflate is nothing: read the next compressed chunk.
      compressed_.resize(kChunk);
      file_.read(compressed_.data(), static_cast<std::streamsize>(kChunk));
      const auto got = static_cast<std::size_t>(file_.gcount());
      if (got == 0) {
        if (!member_ended_) corrupt();  // the file ends inside a member
        return 0;
      }
      inflater_.next_in = reinterpret_cast<Bytef*>(compressed_.data());
      inflater_.avail_in = static_cast<uInt>(got);
      if (member_ended_) {
        reset_inflater();  // another member follows (or data that is not one: an error)
        member_ended_ = false;
      }
    }
    const int status = inflate(&inflater_, Z_NO_FLUSH);
    if (status == Z_STREAM_END) {
      member_ended_ = true;
      if (inflater_.avail_in > 0) {
        reset_inflater();
        member_ended_ = false;
      }
    } else if (status != Z_OK && status != Z_BUF_ERROR) {
      corrupt();
    }
  }
  return room - inflater_.avail_out;
}

std::size_t LineReader::read_text(char* out, std::size_t room) {
  if (gzip_) return inflate_into(out, room);
  file_.read(out, static_cast<std::streamsize>(room));
  return static_cast<std::size_t>(file_.gcount());
}

bool LineReader::refill() {
  if (ended_) return false;
  // Keep the unread part, at the front, and make room after it.
  std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  if (end_ == buffer_.size()) buffer_.resize(2 * buffer_.size());  // a line longer than a chunk
  const std::size_t read = read_text(buffer_.data() + end_, buffer_.size() - end_);
  if (read == 0) {
    ended_ = true;
    return false;
  }
  end_ += read;
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
