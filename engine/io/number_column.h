#pragma once
/// The numbers of one data variable as a reader meets them, kept in fixed-size chunks so
/// that a long column costs its values and no more: no doubling vector (up to 3x while it
/// grows), and one exact allocation when it becomes a tensor. Integers are kept as int64
/// (exact beyond 2^53) until a real number arrives.

#include <cstdint>
#include <memory>
#include <vector>

#include <ATen/core/Tensor.h>

namespace variate::io {

class NumberColumn {
 public:
  /// Appends an integer: the column stays int64 while every value is one.
  void push_integer(int64_t value);
  /// Appends a real number: from here on the column is float64.
  void push_real(double value);

  int64_t size() const { return size_; }

  /// The values as a tensor of `shape` (its product must be size()): int64 when every value
  /// was an integer (and there is at least one), float64 otherwise. Frees the chunks.
  at::Tensor take(const std::vector<int64_t>& shape);

 private:
  // Chunks grow from 8 values to 64K: a table of 10^5 short columns costs little more
  // than its values, and a column of 10^9 wastes at most one chunk.
  static constexpr int64_t kFirstChunk = 8;
  static constexpr int64_t kLargestChunk = int64_t{1} << 16;
  struct Chunk {
    std::unique_ptr<uint64_t[]> slots;  // each value's bits: an int64 or a double
    int64_t capacity = 0;
    int64_t used = 0;
  };
  uint64_t& next_slot();

  std::vector<Chunk> chunks_;
  int64_t size_ = 0;
  bool integers_ = true;
};

}  // namespace variate::io
