#include "engine/ode/runge_kutta_45.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/ode/step_control.h"

namespace variate::ode {
namespace {

// Dormand & Prince's tableau: nodes c, stages a, the 5th-order weights b (the last stage's
// row, so the last evaluation is the next step's first) and b minus the 4th-order weights.
constexpr std::array<double, 7> kC{0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
constexpr double kA[7][6] = {
    {},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
};
constexpr std::array<double, 7> kError{71.0 / 57600,      0.0,        -71.0 / 16695, 71.0 / 1920,
                                       -17253.0 / 339200, 22.0 / 525, -1.0 / 40};

// The states and, with sensitivities, S = d y / d (y0, theta) (N x (N + P), row-major)
// after them: one system of N + N (N + P) equations.
class Coupled {
 public:
  Coupled(const OdeSystem& system, bool sensitivities)
      : system_(system),
        n_(system.states),
        m_(system.states + system.parameters),
        sensitivities_(sensitivities),
        jacobian_y_(sensitivities ? n_ * n_ : 0),
        jacobian_theta_(sensitivities ? n_ * system.parameters : 0) {}

  int64_t size() const { return n_ + (sensitivities_ ? n_ * m_ : 0); }

  std::vector<double> initial(const std::vector<double>& y0) const {
    std::vector<double> z(static_cast<size_t>(size()), 0.0);
    std::copy(y0.begin(), y0.end(), z.begin());
    if (sensitivities_) {
      for (int64_t i = 0; i < n_; ++i) z[n_ + i * m_ + i] = 1.0;
    }
    return z;
  }

  // dS/dt = (d f / d y) S + [0 | d f / d theta].
  void operator()(double t, const double* z, double* dz) {
    system_.rhs(t, z, dz);
    if (!sensitivities_) return;
    system_.jacobians(t, z, jacobian_y_.data(), jacobian_theta_.data());
    const double* s = z + n_;
    double* ds = dz + n_;
    const int64_t p = system_.parameters;
    for (int64_t i = 0; i < n_; ++i) {
      for (int64_t j = 0; j < m_; ++j) {
        double sum = j >= n_ ? jacobian_theta_[i * p + (j - n_)] : 0.0;
        for (int64_t k = 0; k < n_; ++k) sum += jacobian_y_[i * n_ + k] * s[k * m_ + j];
        ds[i * m_ + j] = sum;
      }
    }
  }

 private:
  const OdeSystem& system_;
  int64_t n_, m_;
  bool sensitivities_;
  std::vector<double> jacobian_y_, jacobian_theta_;
};

}  // namespace

OdeSolution solve_rk45(const OdeSystem& system, double t0, const std::vector<double>& y0,
                       const std::vector<double>& times, const OdeTolerances& tolerances, bool sensitivities) {
  check_arguments(system, t0, y0, times, tolerances);
  Coupled f(system, sensitivities);
  const int64_t d = f.size();
  const size_t size = static_cast<size_t>(d);
  std::vector<double> z = f.initial(y0);
  std::array<std::vector<double>, 7> k;
  for (auto& stage : k) stage.assign(size, 0.0);
  std::vector<double> stage_point(size), next(size), error(size), peak(size);

  // The first step by Hairer, Norsett & Wanner's rule (Solving ODEs I, II.4).
  double t = t0;
  f(t, z.data(), k[0].data());
  double h = 0;
  {
    const double d0 = scaled_norm(z, z, tolerances), d1 = scaled_norm(k[0], z, tolerances);
    const double h0 = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1;
    for (size_t i = 0; i < size; ++i) stage_point[i] = z[i] + h0 * k[0][i];
    f(t + h0, stage_point.data(), k[1].data());
    for (size_t i = 0; i < size; ++i) error[i] = (k[1][i] - k[0][i]) / h0;
    const double d2 = scaled_norm(error, z, tolerances);
    const double h1 = std::max(d1, d2) <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / std::max(d1, d2), 0.2);
    h = std::min(100 * h0, h1);
  }

  OdeSolution solution;
  solution.states = system.states;
  solution.parameters = system.parameters;
  const int64_t n = system.states;
  for (const double end : times) {
    int64_t steps = 0;
    while (t < end) {
      if (++steps > tolerances.max_steps) {
        throw step_limit_reached("rk45", tolerances.max_steps, t, end,
                                 "the system may be stiff: use the stiff solver, ode_bdf, or allow more steps");
      }
      const bool last = h >= end - t;
      const double step = last ? end - t : h;
      if (!last) check_step_size("rk45", step, t);
      for (int stage = 1; stage < 7; ++stage) {
        for (size_t i = 0; i < size; ++i) {
          double sum = 0;
          for (int j = 0; j < stage; ++j) sum += kA[stage][j] * k[j][i];
          stage_point[i] = z[i] + step * sum;
        }
        f(t + kC[stage] * step, stage_point.data(), k[stage].data());
      }
      // The last stage's point is the 5th-order solution.
      next.swap(stage_point);
      for (size_t i = 0; i < size; ++i) {
        double sum = 0;
        for (int j = 0; j < 7; ++j) sum += kError[j] * k[j][i];
        error[i] = step * sum;
        peak[i] = std::max(std::abs(z[i]), std::abs(next[i]));
      }
      const double norm = scaled_norm(error, peak, tolerances);
      if (!std::isfinite(norm) || norm > 1) {
        h = step * (std::isfinite(norm) ? std::max(0.2, 0.9 * std::pow(norm, -0.2)) : 0.2);
        continue;
      }
      t = last ? end : t + step;
      z.swap(next);
      k[0].swap(k[6]);  // first same as last
      const double grow = norm == 0 ? 5.0 : std::clamp(0.9 * std::pow(norm, -0.2), 0.2, 5.0);
      // A step cut short at an output time does not shrink the next one.
      h = last ? std::max(h, step * grow) : step * grow;
    }
    solution.values.insert(solution.values.end(), z.begin(), z.begin() + n);
    if (sensitivities) solution.sensitivities.insert(solution.sensitivities.end(), z.begin() + n, z.end());
  }
  return solution;
}

}  // namespace variate::ode
