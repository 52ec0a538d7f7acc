#pragma once
/// A series decimated as it grows: values fall into buckets of equal count, each keeping
/// its minimum and maximum (and where they occurred); when there are too many buckets,
/// neighbours merge and the width doubles. Appending is O(1) amortized and a plot gets at
/// most two points per bucket, so a 100,000-draw trace draws as ~4,000 points with every
/// spike still visible (the min/max decimation of oscilloscopes).

#include <vector>

#include <QVector>

namespace variate::ui {

class DecimatedSeries {
 public:
  explicit DecimatedSeries(int maxBuckets = 2000) : maxBuckets_(maxBuckets) {}

  void clear();
  void append(double x, double y);
  /// Values appended so far.
  int count() const { return count_; }
  /// The points to draw, in x order: at most 2 × maxBuckets.
  void points(QVector<double>* xs, QVector<double>* ys) const;

 private:
  struct Bucket {
    double minX, minY, maxX, maxY;
    int n;
  };
  void mergePairs();

  std::vector<Bucket> buckets_;
  int width_ = 1;
  int count_ = 0;
  int maxBuckets_;
};

}  // namespace variate::ui
