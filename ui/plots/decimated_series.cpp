#include "ui/plots/decimated_series.h"

#include <cmath>

namespace variate::ui {

void DecimatedSeries::clear() {
  buckets_.clear();
  width_ = 1;
  count_ = 0;
}

void DecimatedSeries::append(double x, double y) {
  ++count_;
  if (!buckets_.empty() && buckets_.back().n < width_) {
    Bucket& b = buckets_.back();
    // NaN never wins a comparison, so it cannot replace a finite extreme.
    if (y < b.minY || std::isnan(b.minY)) { b.minY = y; b.minX = x; }
    if (y > b.maxY || std::isnan(b.maxY)) { b.maxY = y; b.maxX = x; }
    ++b.n;
    return;
  }
  buckets_.push_back({x, y, x, y, 1});
  if (static_cast<int>(buckets_.size()) > maxBuckets_) mergePairs();
}

void DecimatedSeries::mergePairs() {
  std::vector<Bucket> merged;
  merged.reserve(buckets_.size() / 2 + 1);
  for (size_t i = 0; i < buckets_.size(); i += 2) {
    Bucket b = buckets_[i];
    if (i + 1 < buckets_.size()) {
      const Bucket& c = buckets_[i + 1];
      if (c.minY < b.minY) { b.minY = c.minY; b.minX = c.minX; }
      if (c.maxY > b.maxY) { b.maxY = c.maxY; b.maxX = c.maxX; }
      b.n += c.n;
    }
    merged.push_back(b);
  }
  buckets_ = std::move(merged);
  width_ *= 2;
}

void DecimatedSeries::points(QVector<double>* xs, QVector<double>* ys) const {
  xs->clear();
  ys->clear();
  xs->reserve(static_cast<int>(buckets_.size()) * 2);
  ys->reserve(static_cast<int>(buckets_.size()) * 2);
  for (const Bucket& b : buckets_) {
    if (b.n == 1 || b.minX == b.maxX) {
      *xs << b.minX;
      *ys << b.minY;
    } else if (b.minX < b.maxX) {
      *xs << b.minX << b.maxX;
      *ys << b.minY << b.maxY;
    } else {
      *xs << b.maxX << b.minX;
      *ys << b.maxY << b.minY;
    }
  }
}

}  // namespace variate::ui
