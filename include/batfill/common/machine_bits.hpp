#pragma once
// Machine ids as bits, 64 to a word, changed and tested a range at a time.
//
// Starting and ending a job touches every machine it holds, and a job may hold thousands, so
// tables of machine states work on words, not ids: a job of a thousand machines is 16 word
// operations.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace batfill {

class MachineBits {
 public:
  using Word = std::uint64_t;
  static constexpr int kWordBits = 64;

  explicit MachineBits(int size)
      : size_(std::max(size, 0)),
        words_((static_cast<std::size_t>(size_) + kWordBits - 1) / kWordBits, 0) {}

  int size() const { return size_; }
  bool test(int id) const { return (words_[word_index(id)] >> (id % kWordBits)) & 1U; }
  Word& word(std::size_t index) { return words_[index]; }
  Word word(std::size_t index) const { return words_[index]; }
  std::size_t word_count() const { return words_.size(); }

  // Calls visit(index, mask) for each word holding ids of first..last, clipped to 0..size-1;
  // `mask` has the bits of those ids in word `index`. Tables of the same size share indexes.
  template <class Visit>
  void for_each_word(int first, int last, Visit visit) const {
    first = std::max(first, 0);
    last = std::min(last, size_ - 1);
    for (int start = first; start <= last;) {
      const int bit = start % kWordBits;
      const int end = std::min(last, start - bit + kWordBits - 1);  // the word's last id
      const int width = end - start + 1;
      const Word ones = width == kWordBits ? ~Word{0} : (Word{1} << width) - 1;
      visit(word_index(start), ones << bit);
      start = end + 1;
    }
  }

  static int count(Word bits) { return __builtin_popcountll(bits); }

 private:
  static std::size_t word_index(int id) { return static_cast<std::size_t>(id / kWordBits); }

  int size_;
  std::vector<Word> words_;
};

}  // namespace batfill
