#pragma once
// A text file (plain or gzip) line by line without holding it: the streaming reader's input.
// Lines are split as LineScanner splits a whole text (LF or CRLF, counted from 1), and gzip is
// inflated as read_workload inflates it (every member, corrupt or trailing data an error), so
// both readers accept the same files. Private to src/workload.

#include <zlib.h>

#include <fstream>
#include <string>
#include <string_view>

namespace batfill::workload::detail {

class LineReader {
 public:
  // What a pass over a gzip file checks: everything, or, for a file a first pass has read
  // whole, not the CRC-32 of the text again (about 6% of reading a gzip trace); the structure
  // and lengths of the members are still checked.
  enum class Checksums { kVerify, kAlreadyVerified };

  // Throws std::runtime_error when the file cannot be opened.
  explicit LineReader(const std::string& path, Checksums checksums = Checksums::kVerify);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line, valid until the next call; false at the end. Throws std::runtime_error on
  // corrupt gzip data.
  bool next(std::string_view& line);
  long line_number() const { return line_number_; }

 private:
  // Reads more of the file after the unread part; false when the file has ended.
  bool refill();
  // Up to `room` bytes of text into `out`; 0 at the end.
  std::size_t read_text(char* out, std::size_t room);
  std::size_t inflate_into(char* out, std::size_t room);
  // Starts inflating a member (the first, or the next after one that ended).
  void reset_inflater();
  [[noreturn]] void corrupt() const;

  std::string path_;
  std::ifstream file_;
  bool gzip_ = false;
  Checksums checksums_;
  z_stream inflater_{};
  std::string compressed_;     // gzip only: the chunk being inflated
  bool member_ended_ = false;  // gzip only: the last member read ended cleanly
  std::string buffer_;
  std::size_t begin_ = 0, end_ = 0;  // the unread part of buffer_
  bool ended_ = false;
  long line_number_ = 0;
};

}  // namespace batfill::workload::detail
