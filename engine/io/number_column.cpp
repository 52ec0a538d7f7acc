#include "engine/io/number_column.h"

#include <algorithm>
#include <cstring>

#include <ATen/ATen.h>

namespace variate::io {
namespace {

template <typename To, typename From>
To bits_as(From value) {
  To result;
  std::memcpy(&result, &value, sizeof result);
  return result;
}

}  // namespace

uint64_t& NumberColumn::next_slot() {
  if (chunks_.empty() || chunks_.back().used == chunks_.back().capacity) {
    const int64_t capacity = chunks_.empty() ? kFirstChunk : std::min(kLargestChunk, 2 * chunks_.back().capacity);
    chunks_.push_back({std::make_unique<uint64_t[]>(static_cast<size_t>(capacity)), capacity, 0});
  }
  ++size_;
  return chunks_.back().slots[static_cast<size_t>(chunks_.back().used++)];
}

void NumberColumn::push_integer(int64_t value) {
  if (integers_) {
    next_slot() = bits_as<uint64_t>(value);
  } else {
    push_real(static_cast<double>(value));
  }
}

void NumberColumn::push_real(double value) {
  if (integers_) {  // the values so far become doubles, in place
    for (auto& chunk : chunks_) {
      for (int64_t i = 0; i < chunk.used; ++i) {
        chunk.slots[i] = bits_as<uint64_t>(static_cast<double>(bits_as<int64_t>(chunk.slots[i])));
      }
    }
    integers_ = false;
  }
  next_slot() = bits_as<uint64_t>(value);
}

at::Tensor NumberColumn::take(const std::vector<int64_t>& shape) {
  const bool integers = integers_ && size_ > 0;
  at::Tensor values = at::empty({size_}, integers ? at::kLong : at::kDouble);
  auto* into = static_cast<char*>(values.data_ptr());  // int64 and double are both 8 bytes
  for (auto& chunk : chunks_) {
    std::memcpy(into, chunk.slots.get(), static_cast<size_t>(8 * chunk.used));
    into += 8 * chunk.used;
    chunk.slots.reset();  // each chunk goes back as soon as it is copied
  }
  chunks_.clear();
  size_ = 0;
  integers_ = true;
  return values.reshape(shape);
}

}  // namespace variate::io
