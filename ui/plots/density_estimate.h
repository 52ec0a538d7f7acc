#pragma once
/// Kernel density estimate of draws for the density panel: Gaussian kernel with
/// Silverman's rule-of-thumb bandwidth (Silverman 1986, eq. 3.31), computed on a grid by
/// linear binning and a discrete convolution (Wand 1994), so it costs O(n + grid²) —
/// a few milliseconds for 400,000 draws.

#include <vector>

#include <QVector>

namespace variate::ui {

struct DensityCurve {
  QVector<double> x;
  QVector<double> y;
  bool empty() const { return x.isEmpty(); }
};

/// Empty for fewer than 2 finite values or constant ones. Non-finite values are skipped.
DensityCurve densityEstimate(const std::vector<double>& values, int gridSize = 256);

/// Silverman's bandwidth 0.9 min(sd, IQR / 1.34) n^(-1/5) of finite values (0 if undefined).
double silvermanBandwidth(std::vector<double> values);

}  // namespace variate::ui
