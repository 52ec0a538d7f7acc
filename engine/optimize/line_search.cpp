#include "engine/optimize/line_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace variate {
namespace {

constexpr double kC1 = 1e-4;
constexpr double kC2 = 0.9;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

class Line {
 public:
  Line(const ObjectiveFunction& f, const LinePoint& start, const std::vector<double>& p)
      : f_(f), start_(start), p_(p) {}

  LinePoint at(double alpha) {
    ++evaluations;
    LinePoint point;
    point.alpha = alpha;
    point.x.resize(p_.size());
    for (size_t i = 0; i < p_.size(); ++i) point.x[i] = start_.x[i] + alpha * p_[i];
    point.gradient.assign(p_.size(), 0.0);
    point.value = f_(point.x, point.gradient);
    point.slope = dot(point.gradient, p_);
    if (!std::isfinite(point.value) || !std::isfinite(point.slope)) {
      point.value = kInfinity;
      point.slope = kInfinity;
    }
    return point;
  }
  bool sufficient_decrease(const LinePoint& point) const {
    return point.value <= start_.value + kC1 * point.alpha * start_.slope;
  }
  bool curvature(const LinePoint& point) const { return std::abs(point.slope) <= -kC2 * start_.slope; }

  int evaluations = 0;

 private:
  const ObjectiveFunction& f_;
  const LinePoint& start_;
  const std::vector<double>& p_;
};

// The minimizer of the cubic through (a, f_a, d_a) and (b, f_b, d_b), kept inside the
// middle 80% of the interval; the midpoint when the cubic is of no use (an infinite end).
double interpolate(const LinePoint& a, const LinePoint& b) {
  const double lo = std::min(a.alpha, b.alpha), hi = std::max(a.alpha, b.alpha);
  const double midpoint = 0.5 * (lo + hi);
  if (!std::isfinite(a.value) || !std::isfinite(b.value)) return midpoint;
  const double d1 = a.slope + b.slope - 3 * (a.value - b.value) / (a.alpha - b.alpha);
  const double radicand = d1 * d1 - a.slope * b.slope;
  if (!(radicand >= 0)) return midpoint;
  const double d2 = std::copysign(std::sqrt(radicand), b.alpha - a.alpha);
  const double t = b.alpha - (b.alpha - a.alpha) * (b.slope + d2 - d1) / (b.slope - a.slope + 2 * d2);
  if (!std::isfinite(t)) return midpoint;
  const double margin = 0.1 * (hi - lo);
  return std::clamp(t, lo + margin, hi - margin);
}

}  // namespace

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

LineSearchResult strong_wolfe_search(const ObjectiveFunction& f, const LinePoint& start,
                                     const std::vector<double>& p, double alpha, int max_evaluations) {
  Line line(f, start, p);
  LineSearchResult result;
  LinePoint previous = start;
  LinePoint best;  // the lowest point with sufficient decrease so far (alpha 0: none)
  const auto consider = [&](const LinePoint& point) {
    if (line.sufficient_decrease(point) && (best.alpha == 0 || point.value < best.value)) best = point;
  };
  const auto finish = [&](bool found) {
    result.found = found;
    result.point = found ? result.point : best;
    result.evaluations = line.evaluations;
    return result;
  };
  // Zooms into [lo, hi], where lo has sufficient decrease and the lower value.
  const auto zoom = [&](LinePoint lo, LinePoint hi) {
    while (line.evaluations < max_evaluations) {
      const double trial = interpolate(lo, hi);
      if (std::abs(hi.alpha - lo.alpha) < 1e-16 * std::max(1.0, lo.alpha)) break;
      LinePoint point = line.at(trial);
      consider(point);
      if (!line.sufficient_decrease(point) || point.value >= lo.value) {
        hi = std::move(point);
        continue;
      }
      if (line.curvature(point)) {
        result.point = std::move(point);
        return finish(true);
      }
      if (point.slope * (hi.alpha - lo.alpha) >= 0) hi = lo;
      lo = std::move(point);
    }
    return finish(false);
  };
  for (int i = 0; line.evaluations < max_evaluations; ++i) {
    LinePoint point = line.at(alpha);
    consider(point);
    if (!line.sufficient_decrease(point) || (i > 0 && point.value >= previous.value)) {
      return zoom(previous, point);
    }
    if (line.curvature(point)) {
      result.point = std::move(point);
      return finish(true);
    }
    if (point.slope >= 0) return zoom(point, previous);
    previous = std::move(point);
    alpha *= 2;
  }
  return finish(false);
}

}  // namespace variate
