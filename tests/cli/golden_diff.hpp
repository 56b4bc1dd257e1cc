#pragma once
// What the golden test keeps besides its whole-file hashes, so that a failure names the first
// difference instead of only saying a hash changed:
// - the texts themselves, gzip-compressed, where they are small (a row-by-row diff names the
//   first differing job and column, with both values);
// - for the large traces, whose outputs are megabytes, a fingerprint: a hash per column and a
//   hash per block of rows with the block's first job id, which name the differing columns and
//   the first block of jobs that differs.

#include <zlib.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli_support.hpp"

namespace batfill::golden {

// FNV-1a, 64 bits: the whole-file hash of golden_outputs.txt (16 hex digits); its low 32 bits
// (8 hex digits) suffice for the columns and blocks of a fingerprint, which only locate.
class Fnv1a {
 public:
  void add(std::string_view text) {
    for (unsigned char c : text) {
      hash_ ^= c;
      hash_ *= 0x100000001b3ULL;
    }
  }
  std::string hex16() const { return hex("%016" PRIx64, hash_); }
  std::string hex8() const { return hex("%08" PRIx64, hash_ & 0xffffffffULL); }

 private:
  static std::string hex(const char* format, std::uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, format, value);
    return text;
  }
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

inline std::string fnv1a(std::string_view text) {
  Fnv1a hash;
  hash.add(text);
  return hash.hex16();
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The first place two CSV texts (header line, then rows) differ, rows compared in order.
struct CsvDifference {
  std::size_t row = 0;  // 1-based, after the header; 0: the header itself
  std::string job;      // the row's job_id, recorded (or produced when none was recorded)
  std::string column;
  std::string recorded, produced;  // the values (whole lines for a missing or extra row)

  std::string describe() const {
    if (row == 0) return "header is\n  " + produced + "\nrecorded\n  " + recorded;
    return "row " + std::to_string(row) + (job.empty() ? "" : " (job " + job + ")") + ", column " +
           column + ": '" + produced + "', recorded '" + recorded + "'";
  }
};

inline std::string field_or_none(const std::vector<std::string>& fields, std::size_t i) {
  return i < fields.size() ? fields[i] : "(none)";
}

// The job a row is about, when the CSV's first column is job_id (a _jobs.csv).
inline std::string job_of(const std::vector<std::string>& header, const std::string& line) {
  if (header.empty() || header[0] != "job_id") return "";
  return cli_testing::split_csv_line(line)[0];
}

inline CsvDifference row_difference(const std::vector<std::string>& header, std::size_t row,
                                    const std::string& recorded, const std::string& produced) {
  const std::vector<std::string> want = cli_testing::split_csv_line(recorded);
  const std::vector<std::string> got = cli_testing::split_csv_line(produced);
  std::size_t c = 0;
  while (c < want.size() && c < got.size() && want[c] == got[c]) ++c;
  const std::string column = c < header.size() ? header[c] : "#" + std::to_string(c + 1);
  return {row, job_of(header, recorded), column, field_or_none(want, c), field_or_none(got, c)};
}

// Nothing (row 0, empty column and values) when the texts are equal.
inline CsvDifference first_csv_difference(const std::string& recorded,
                                          const std::string& produced) {
  const std::vector<std::string> want = lines_of(recorded);
  const std::vector<std::string> got = lines_of(produced);
  const std::string want_header = want.empty() ? "" : want[0];
  const std::string got_header = got.empty() ? "" : got[0];
  if (want_header != got_header) return {0, "", "(header)", want_header, got_header};
  const std::vector<std::string> header = cli_testing::split_csv_line(want_header);
  for (std::size_t i = 1; i < want.size() || i < got.size(); ++i) {
    if (i < want.size() && i < got.size()) {
      if (want[i] != got[i]) return row_difference(header, i, want[i], got[i]);
    } else if (i < want.size()) {
      return {i, job_of(header, want[i]), "(whole row)", want[i], "(none)"};
    } else {
      return {i, job_of(header, got[i]), "(whole row)", "(none)", got[i]};
    }
  }
  return {};
}

// The first place two texts differ, line by line (serve's replies, one per line).
struct LineDifference {
  std::size_t line = 0;            // 1-based; 0 when the texts are equal
  std::size_t column = 0;          // 1-based, of the first differing character
  std::string recorded, produced;  // excerpts of both lines around that character

  std::string describe() const {
    return "line " + std::to_string(line) + ", from character " + std::to_string(column) + ":\n  " +
           produced + "\nrecorded\n  " + recorded;
  }
};

// A long line (a reply may list thousands of machines) cut to the neighbourhood of `at`.
inline std::string excerpt(const std::string& line, std::size_t at) {
  const std::size_t begin = at > 40 ? at - 40 : 0;
  std::string text = (begin > 0 ? "..." : "") + line.substr(begin, 120);
  return begin + 120 < line.size() ? text + "..." : text;
}

inline LineDifference first_line_difference(const std::string& recorded,
                                            const std::string& produced) {
  const std::vector<std::string> want = lines_of(recorded);
  const std::vector<std::string> got = lines_of(produced);
  for (std::size_t i = 0; i < want.size() || i < got.size(); ++i) {
    const std::string w = i < want.size() ? want[i] : "(none)";
    const std::string g = i < got.size() ? got[i] : "(none)";
    if (i < want.size() && i < got.size() && w == g) continue;
    std::size_t c = 0;
    while (c < w.size() && c < g.size() && w[c] == g[c]) ++c;
    return {i + 1, c + 1, excerpt(w, c), excerpt(g, c)};
  }
  return {};
}

// A hash per column (over its values in row order) and per block of rows, of a CSV too large
// to keep. Written on one line: "ROWS BLOCK_ROWS" then " NAME:HASH" per column, " |", then
// " FIRST_JOB:HASH" per block.
struct CsvFingerprint {
  std::size_t rows = 0;
  std::size_t block_rows = 0;
  std::vector<std::pair<std::string, std::string>> columns;  // name, hash
  std::vector<std::pair<std::string, std::string>> blocks;   // first job id, hash

  std::string to_line() const {
    std::string line = std::to_string(rows) + " " + std::to_string(block_rows);
    for (const auto& [name, hash] : columns) line += " " + name + ":" + hash;
    line += " |";
    for (const auto& [job, hash] : blocks) line += " " + job + ":" + hash;
    return line;
  }

  static CsvFingerprint parse(const std::string& line) {
    CsvFingerprint print;
    std::istringstream in(line);
    if (!(in >> print.rows >> print.block_rows)) throw std::runtime_error("bad fingerprint");
    auto* into = &print.columns;
    for (std::string token; in >> token;) {
      const std::size_t colon = token.rfind(':');
      if (token == "|") {
        into = &print.blocks;
      } else if (colon != std::string::npos) {
        into->emplace_back(token.substr(0, colon), token.substr(colon + 1));
      }
    }
    return print;
  }
};

inline CsvFingerprint fingerprint(const std::string& csv, std::size_t block_rows) {
  const std::vector<std::string> lines = lines_of(csv);
  CsvFingerprint print{lines.empty() ? 0 : lines.size() - 1, block_rows, {}, {}};
  const std::vector<std::string> header =
      cli_testing::split_csv_line(lines.empty() ? "" : lines[0]);
  std::vector<Fnv1a> columns(header.size());
  Fnv1a block;
  for (std::size_t row = 1; row < lines.size(); ++row) {
    const std::vector<std::string> fields = cli_testing::split_csv_line(lines[row]);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      columns[c].add(field_or_none(fields, c));
      columns[c].add("\n");
    }
    if ((row - 1) % block_rows == 0) {
      if (row > 1) print.blocks.back().second = block.hex8();
      print.blocks.emplace_back(fields[0], "");
      block = Fnv1a();
    }
    block.add(lines[row]);
    block.add("\n");
  }
  if (!print.blocks.empty()) print.blocks.back().second = block.hex8();
  for (std::size_t c = 0; c < header.size(); ++c) {
    print.columns.emplace_back(header[c], columns[c].hex8());
  }
  return print;
}

// The differing columns and the first differing block, as a maintainer reads them.
inline std::string describe_difference(const CsvFingerprint& recorded,
                                       const CsvFingerprint& produced) {
  std::string text = std::to_string(produced.rows) + " rows, recorded " +
                     std::to_string(recorded.rows) + "\ncolumns that differ somewhere:";
  if (recorded.columns.size() != produced.columns.size()) text += " (the header differs)";
  for (std::size_t c = 0; c < recorded.columns.size() && c < produced.columns.size(); ++c) {
    if (recorded.columns[c] != produced.columns[c]) text += " " + recorded.columns[c].first;
  }
  for (std::size_t b = 0; b < recorded.blocks.size() || b < produced.blocks.size(); ++b) {
    if (b < recorded.blocks.size() && b < produced.blocks.size() &&
        recorded.blocks[b] == produced.blocks[b]) {
      continue;
    }
    const std::size_t first = b * recorded.block_rows + 1;
    const std::size_t last = first + recorded.block_rows - 1;
    text += "\nfirst differing block: rows " + std::to_string(first) + " to " +
            std::to_string(last) + " (lines " + std::to_string(first + 1) + " to " +
            std::to_string(last + 1) + " with the header), first job " +
            (b < produced.blocks.size() ? produced.blocks[b].first : "(none)") + ", recorded " +
            (b < recorded.blocks.size() ? recorded.blocks[b].first : "(none)");
    return text;
  }
  return text + "\nno block differs (a 32-bit hash collision?)";
}

inline std::string read_gzip(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) throw std::runtime_error("cannot open " + path);
  std::string text;
  char buffer[1 << 16];
  int read = 0;
  while ((read = gzread(file, buffer, sizeof buffer)) > 0) text.append(buffer, read);
  gzclose(file);
  if (read < 0) throw std::runtime_error("cannot decompress " + path);
  return text;
}

// gzip's header written by zlib carries no time stamp: the same text gives the same file.
inline void write_gzip(const std::string& path, const std::string& text) {
  gzFile file = gzopen(path.c_str(), "wb9");
  if (file == nullptr) throw std::runtime_error("cannot write " + path);
  const int written = gzwrite(file, text.data(), static_cast<unsigned>(text.size()));
  if (gzclose(file) != Z_OK || written != static_cast<int>(text.size())) {
    throw std::runtime_error("cannot compress into " + path);
  }
}

}  // namespace batfill::golden
