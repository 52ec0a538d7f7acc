#pragma once
/// A chain's own reproducible random stream: uniform and standard normal draws from a
/// 64-bit Mersenne twister, seeded per chain from one user seed.

#include <cstdint>
#include <random>

namespace variate {

class RandomStream {
 public:
  explicit RandomStream(uint64_t seed) : engine_(seed) {}

  /// Chain `chain`'s stream of a run seeded with `seed` (SplitMix64 of both, so nearby
  /// seeds and chains give unrelated streams).
  static RandomStream for_chain(uint64_t seed, uint64_t chain);

  double uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(engine_); }
  double normal() { return normal_(engine_); }
  uint64_t next() { return engine_(); }

 private:
  std::mt19937_64 engine_;
  std::normal_distribution<double> normal_;
};

}  // namespace variate
