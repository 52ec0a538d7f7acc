#include "engine/core/random_stream.h"

namespace variate {
namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace

RandomStream RandomStream::for_chain(uint64_t seed, uint64_t chain) {
  return RandomStream(splitmix64(splitmix64(seed) ^ splitmix64(chain + 0x632BE59BD9B4E019ULL)));
}

}  // namespace variate
