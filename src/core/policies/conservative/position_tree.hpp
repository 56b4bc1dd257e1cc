#pragma once
// One value per position of a sequence, with the best value of any prefix and the first position
// from a given one whose value is at least as good as a bound, both in O(log n). Classic
// conservative backfilling keeps one per waiting job, in queue order, so that a pass visits only
// the reservations that may move or start instead of every waiting job
// (docs/semantics.md#conservative-classic--feitelson--weil-1998).
//
// A complete binary tree in one vector (leaves at [leaves, 2 * leaves)); each inner node holds
// the best of its two children. `Better` orders values, best first: std::less for the smallest.

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace batfill {

template <class T, class Better>
class PositionTree {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  // `worst` fills the positions never set; it must be no better than any value set.
  explicit PositionTree(T worst) : worst_(worst), tree_(2, worst) {}

  // Every position holds `worst` again.
  void clear() { tree_.assign(2 * leaves_, worst_); }

  void set(std::size_t position, T value) {
    if (position >= leaves_) grow(position + 1);
    std::size_t node = position + leaves_;
    tree_[node] = value;
    for (node /= 2; node >= 1; node /= 2) {
      const T best = pick(tree_[2 * node], tree_[2 * node + 1]);
      if (tree_[node] == best) break;  // the nodes above hold it already
      tree_[node] = best;
    }
  }

  // The best value at the positions before `end` (`worst` if none).
  T best_before(std::size_t end) const {
    T best = worst_;
    std::size_t left = leaves_;
    std::size_t right = leaves_ + std::min(end, leaves_);
    for (; left < right; left /= 2, right /= 2) {
      if (left % 2 == 1) best = pick(best, tree_[left++]);
      if (right % 2 == 1) best = pick(best, tree_[--right]);
    }
    return best;
  }

  // The value at `position` (`worst` if never set).
  T at(std::size_t position) const {
    return position < leaves_ ? tree_[leaves_ + position] : worst_;
  }

  // Whether every inner node holds the best of its children (for tests and checks).
  bool well_formed() const {
    for (std::size_t node = 1; node < leaves_; ++node) {
      if (!(tree_[node] == pick(tree_[2 * node], tree_[2 * node + 1]))) return false;
    }
    return true;
  }

  // The first position >= `position` whose value is `bound` or better; kNone if none is.
  std::size_t first_from(std::size_t position, T bound) const {
    if (position >= leaves_) return kNone;
    std::size_t node = position + leaves_;
    while (better_(bound, tree_[node])) {
      // Nothing under `node` qualifies: go on with the subtree right after it.
      while (node % 2 == 1) node /= 2;
      if (node == 0) return kNone;
      ++node;
    }
    while (node < leaves_) {
      node *= 2;
      if (better_(bound, tree_[node])) ++node;
    }
    return node - leaves_;
  }

 private:
  T pick(const T& a, const T& b) const { return better_(b, a) ? b : a; }

  // Room for `size` positions at least: doubles the leaves and rebuilds the inner nodes.
  void grow(std::size_t size) {
    std::size_t leaves = leaves_;
    while (leaves < size) leaves *= 2;
    std::vector<T> tree(2 * leaves, worst_);
    std::copy(tree_.begin() + static_cast<std::ptrdiff_t>(leaves_), tree_.end(),
              tree.begin() + static_cast<std::ptrdiff_t>(leaves));
    for (std::size_t node = leaves - 1; node >= 1; --node) {
      tree[node] = pick(tree[2 * node], tree[2 * node + 1]);
    }
    tree_ = std::move(tree);
    leaves_ = leaves;
  }

  T worst_;
  Better better_;
  std::size_t leaves_ = 1;
  std::vector<T> tree_;
};

}  // namespace batfill
