#pragma once
/// A line search for the strong Wolfe conditions (Nocedal & Wright 2006, "Numerical
/// Optimization", Algorithms 3.5 and 3.6: bracketing, then zooming with safeguarded cubic
/// interpolation). Points where the objective is not finite (outside the density's
/// support, an overflow) count as infinitely bad: the search steps back from them.

#include <functional>
#include <vector>

namespace variate {

/// f(x) to minimize and its gradient into `gradient`; not finite where it is undefined.
using ObjectiveFunction = std::function<double(const std::vector<double>& x, std::vector<double>& gradient)>;

/// A point the search evaluated.
struct LinePoint {
  double alpha = 0;
  double value = 0;
  double slope = 0;  ///< directional derivative g(x + alpha p)' p
  std::vector<double> x;
  std::vector<double> gradient;
};

struct LineSearchResult {
  bool found = false;  ///< the strong Wolfe conditions hold at `point`
  LinePoint point;     ///< the accepted point (when found)
  int evaluations = 0;
};

/// The inner product of two vectors of one length (L-BFGS and its line search).
double dot(const std::vector<double>& a, const std::vector<double>& b);

/// Searches along descent direction `p` from `start` (alpha 0, with value and slope < 0)
/// from the trial step `alpha`. c1 = 1e-4 (sufficient decrease), c2 = 0.9 (curvature), as
/// quasi-Newton methods use.
LineSearchResult strong_wolfe_search(const ObjectiveFunction& f, const LinePoint& start,
                                     const std::vector<double>& p, double alpha, int max_evaluations = 40);

}  // namespace variate
