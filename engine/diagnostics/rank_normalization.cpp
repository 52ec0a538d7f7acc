// Vehtari, Gelman, Simpson, Carpenter & Buerkner (2021), "Rank-normalization, folding,
// and localization: an improved R-hat", Sec. 4.1 (eq. 14) and 4.2 (folding); ties as R's
// rank(ties.method = "average"), as posterior's z_scale() and Stan's rank_transform().
// One sort of (value, position) pairs serves the draws and their folded version; it is
// an LSD radix sort on the doubles' bits (Knuth, TAOCP vol. 3, 5.2.5; the sign-flip
// mapping of IEEE 754 doubles to order-preserving integers), O(S) rather than
// O(S log S): the sort dominates summarize() when the draws grow to 10^5 per chain.

#include "engine/diagnostics/rank_normalization.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "engine/diagnostics/inverse_normal_cdf.h"
#include "engine/diagnostics/not_a_number.h"

namespace variate::diagnostics {
namespace {

using Entry = std::pair<double, std::uint64_t>;

// Unsigned integers in the order of the doubles (NaN excluded): flip every bit of
// negatives, only the sign bit of the rest. -0 lands next to +0, where the tie
// detection (==) still joins them.
std::uint64_t sortable_bits(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return (u >> 63) != 0 ? ~u : u | (std::uint64_t{1} << 63);
}

// Stable LSD radix sort by value, 11 bits per pass; passes whose digit is the same for
// every entry are skipped (the high digits of draws often are).
void sort_by_value(std::vector<Entry>& entries) {
  constexpr int kBits = 11;
  constexpr int kPasses = (64 + kBits - 1) / kBits;
  constexpr std::size_t kBuckets = std::size_t{1} << kBits;
  if (entries.size() < 256) {
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& l, const Entry& r) { return l.first < r.first; });
    return;
  }
  std::vector<std::array<std::size_t, kBuckets>> counts(kPasses);
  for (auto& c : counts) c.fill(0);
  for (const Entry& e : entries) {
    const std::uint64_t key = sortable_bits(e.first);
    for (int pass = 0; pass < kPasses; ++pass)
      ++counts[pass][(key >> (pass * kBits)) & (kBuckets - 1)];
  }
  std::vector<Entry> buffer(entries.size());
  for (int pass = 0; pass < kPasses; ++pass) {
    auto& count = counts[pass];
    if (std::find(count.begin(), count.end(), entries.size()) != count.end()) continue;
    std::size_t offset = 0;
    for (auto& c : count) offset += std::exchange(c, offset);
    for (const Entry& e : entries) {
      buffer[count[(sortable_bits(e.first) >> (pass * kBits)) & (kBuckets - 1)]++] = e;
    }
    entries.swap(buffer);
  }
}

}  // namespace

Ranking::Ranking(const Draws& draws, double offset)
    : chains_(draws.size()), n_(draws_per_chain(draws)), offset_(offset) {
  check_draws("rank_normalize", draws);
  const std::size_t total = chains_ * n_;
  sorted_.reserve(total);
  for (std::size_t c = 0; c < chains_; ++c) {
    for (std::size_t i = 0; i < n_; ++i) {
      const double x = draws[c][i];
      // Infinite draws still have ranks; only NaN has none.
      if (std::isnan(x)) {
        has_nan_ = true;
        sorted_.clear();
        return;
      }
      sorted_.emplace_back(x, c * n_ + i);
    }
  }
  sort_by_value(sorted_);

  // Phi^-1 is the costly part: once per integer rank, half of them by symmetry
  // (p(S + 1 - r) = 1 - p(r)), shared by the plain and the folded normalization.
  z_by_rank_.resize(total);
  for (std::size_t r = 1; 2 * r <= total + 1; ++r) {
    const double z = z_of_rank(static_cast<double>(r));
    z_by_rank_[r - 1] = z;
    z_by_rank_[total - r] = -z;
  }
}

double Ranking::z_of_rank(double rank) const {
  const double total = static_cast<double>(chains_ * n_);
  return inverse_normal_cdf((rank - offset_) / (total - 2 * offset_ + 1));
}

Draws Ranking::ranked_from(const std::vector<std::uint64_t>& order,
                           const std::vector<double>& values) const {
  Draws z(chains_, std::vector<double>(n_));
  const std::size_t total = order.size();
  for (std::size_t first = 0; first < total;) {
    std::size_t last = first + 1;
    while (last < total && values[last] == values[first]) ++last;
    // 1-based ranks first + 1 .. last share their average.
    const double value = last == first + 1 ? z_by_rank_[first]
                                           : z_of_rank(0.5 * static_cast<double>(first + 1 + last));
    for (std::size_t k = first; k < last; ++k) z[order[k] / n_][order[k] % n_] = value;
    first = last;
  }
  return z;
}

Draws Ranking::normalized() const {
  if (has_nan_) return Draws(chains_, std::vector<double>(n_, kNaN));
  std::vector<std::uint64_t> order(sorted_.size());
  std::vector<double> values(sorted_.size());
  for (std::size_t k = 0; k < sorted_.size(); ++k) {
    values[k] = sorted_[k].first;
    order[k] = sorted_[k].second;
  }
  return ranked_from(order, values);
}

Draws Ranking::folded_normalized(double center) const {
  if (has_nan_ || !std::isfinite(center)) return Draws(chains_, std::vector<double>(n_, kNaN));
  // Below the center |x - center| grows leftwards, above it rightwards: merge outwards.
  const std::size_t total = sorted_.size();
  const auto split = std::lower_bound(sorted_.begin(), sorted_.end(), center,
                                      [](const auto& e, double c) { return e.first < c; });
  std::ptrdiff_t left = (split - sorted_.begin()) - 1;
  std::size_t right = static_cast<std::size_t>(split - sorted_.begin());
  std::vector<std::uint64_t> order;
  std::vector<double> values;
  order.reserve(total);
  values.reserve(total);
  while (left >= 0 || right < total) {
    const double from_left = left >= 0 ? std::abs(sorted_[left].first - center)
                                       : std::numeric_limits<double>::infinity();
    const double from_right = right < total ? std::abs(sorted_[right].first - center)
                                            : std::numeric_limits<double>::infinity();
    // On equal values (or two infinities) take the side that still has draws.
    if (right >= total || (left >= 0 && from_left < from_right)) {
      values.push_back(from_left);
      order.push_back(sorted_[left--].second);
    } else {
      values.push_back(from_right);
      order.push_back(sorted_[right++].second);
    }
  }
  return ranked_from(order, values);
}

Draws rank_normalize(const Draws& draws, double offset) {
  return Ranking(draws, offset).normalized();
}

}  // namespace variate::diagnostics
