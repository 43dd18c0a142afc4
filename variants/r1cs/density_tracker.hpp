// Which variables a matrix touches (bellman's DensityTracker): one bit per variable plus a count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace zk::r1cs {

class density_tracker {
 public:
  void reserve(size_t n) { words_.reserve((n + 63) / 64); }

  void add_element() {
    if (size_ % 64 == 0) words_.push_back(0);
    ++size_;
  }

  void inc(size_t i) {
    uint64_t& w = words_[i / 64];
    const uint64_t bit = uint64_t{1} << (i % 64);
    total_ += (w & bit) == 0;
    w |= bit;
  }

  bool get(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  size_t size() const { return size_; }
  size_t total_density() const { return total_; }
  size_t capacity() const { return words_.capacity() * 64; }

 private:
  std::vector<uint64_t> words_;
  size_t size_ = 0;
  size_t total_ = 0;
};

}  // namespace zk::r1cs
