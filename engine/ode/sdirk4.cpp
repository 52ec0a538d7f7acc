#include "engine/ode/sdirk4.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/ode/dense_lu.h"
#include "engine/ode/step_control.h"

namespace variate::ode {
namespace {

// Hairer & Wanner's SDIRK4 (Solving ODEs II, Table 6.5): Y_i = y + h sum_j a_ij F_j with
// a_ii = 1/4; y(t + h) = Y_5 (the weights b are the last row); the embedded order-3
// weights differ from b by kSdirkError.
constexpr int kStages = 5;
constexpr double kSdirkGamma = 0.25;
constexpr std::array<double, kStages> kSdirkC{0.25, 0.75, 11.0 / 20, 0.5, 1.0};
constexpr double kSdirkA[kStages][kStages] = {
    {0.25},
    {0.5, 0.25},
    {17.0 / 50, -1.0 / 25, 0.25},
    {371.0 / 1360, -137.0 / 2720, 15.0 / 544, 0.25},
    {25.0 / 24, -49.0 / 48, 125.0 / 16, -85.0 / 12, 0.25},
};
// b - b_hat, b_hat = (59/48, -17/96, 225/32, -85/12, 0).
constexpr std::array<double, kStages> kSdirkError{25.0 / 24 - 59.0 / 48, -49.0 / 48 + 17.0 / 96,
                                                  125.0 / 16 - 225.0 / 32, 0.0, 0.25};

// Newton's iteration on a stage stops when its correction is this small against the
// tolerances: far below the error allowed a step, so the stage equations hold as the
// sensitivities assume.
constexpr double kNewtonTolerance = 1e-6;
constexpr int kNewtonIterations = 10;

class SdirkIntegrator {
 public:
  SdirkIntegrator(const OdeSystem& system, const OdeTolerances& tolerances, bool sensitivities)
      : system_(system),
        tolerances_(tolerances),
        n_(system.states),
        p_(system.parameters),
        m_(system.states + system.parameters),
        sensitivities_(sensitivities),
        jacobian_y_(static_cast<size_t>(n_ * n_)),
        jacobian_theta_(static_cast<size_t>(n_ * p_)),
        matrix_(static_cast<size_t>(n_ * n_)) {
    for (auto& f : f_) f.assign(static_cast<size_t>(n_), 0.0);
    for (auto& f : fs_) f.assign(static_cast<size_t>(sensitivities ? n_ * m_ : 0), 0.0);
    for (auto& y : y_stage_) y.assign(static_cast<size_t>(n_), 0.0);
    for (auto& s : s_stage_) s.assign(static_cast<size_t>(sensitivities ? n_ * m_ : 0), 0.0);
  }

  void start(double t0, const std::vector<double>& y0) {
    t_ = t0;
    y_ = y0;
    if (sensitivities_) {
      s_.assign(static_cast<size_t>(n_ * m_), 0.0);
      for (int64_t i = 0; i < n_; ++i) s_[i * m_ + i] = 1.0;
    }
    slope_.assign(static_cast<size_t>(n_), 0.0);
    system_.rhs(t_, y_.data(), slope_.data());
    jacobians(t_, y_);
    h_ = initial_step();
  }

  double t() const { return t_; }
  const std::vector<double>& y() const { return y_; }
  const std::vector<double>& s() const { return s_; }

  // One attempt to step towards `end`; false when rejected (h_ is then smaller).
  bool step(double end) {
    const bool last = h_ >= end - t_;
    const double h = last ? end - t_ : h_;
    if (!last) check_step_size("bdf (SDIRK4)", h, t_);
    if (!sensitivities_) jacobians(t_, y_);  // with them, the last stage's are at y already
    for (int i = 0; i < kStages; ++i) {
      if (!stage(i, h) || (sensitivities_ && !stage_sensitivities(i, h))) {
        h_ = h / 4;
        jacobians(t_, y_);  // the next attempt's Newton starts from the step's start
        return false;
      }
    }
    const std::vector<double>& next = y_stage_[kStages - 1];
    // The error estimate, filtered by the last stage's iteration matrix.
    std::vector<double> error(static_cast<size_t>(n_), 0.0), peak(static_cast<size_t>(n_));
    for (int j = 0; j < kStages; ++j) {
      for (int64_t i = 0; i < n_; ++i) error[i] += h * kSdirkError[j] * f_[j][i];
    }
    lu_solve(matrix_, pivot_, n_, error.data(), 1);
    for (int64_t i = 0; i < n_; ++i) peak[i] = std::max(std::abs(y_[i]), std::abs(next[i]));
    if (sensitivities_) {
      std::vector<double> error_s(static_cast<size_t>(n_ * m_), 0.0);
      for (int j = 0; j < kStages; ++j) {
        for (size_t i = 0; i < error_s.size(); ++i) error_s[i] += h * kSdirkError[j] * fs_[j][i];
      }
      lu_solve(matrix_, pivot_, n_, error_s.data(), m_);
      error.insert(error.end(), error_s.begin(), error_s.end());
      const std::vector<double>& s_next = s_stage_[kStages - 1];
      for (size_t i = 0; i < error_s.size(); ++i) peak.push_back(std::max(std::abs(s_[i]), std::abs(s_next[i])));
    }
    const double norm = scaled_norm(error, peak, tolerances_);
    if (!std::isfinite(norm) || norm > 1) {
      h_ = h * (std::isfinite(norm) ? std::max(0.2, 0.9 * std::pow(norm, -0.25)) : 0.2);
      jacobians(t_, y_);
      return false;
    }
    t_ = last ? end : t_ + h;
    y_ = next;
    if (sensitivities_) s_ = s_stage_[kStages - 1];
    slope_ = f_[kStages - 1];  // stiffly accurate: f at the new y
    const double grow = norm == 0 ? 5.0 : std::clamp(0.9 * std::pow(norm, -0.25), 0.2, 5.0);
    h_ = last ? std::max(h_, h * grow) : h * grow;  // a step cut short at an output time does not shrink the next
    return true;
  }

 private:
  void jacobians(double t, const std::vector<double>& y) {
    system_.jacobians(t, y.data(), jacobian_y_.data(), jacobian_theta_.data());
  }

  // I - h gamma J, factored; false if singular.
  bool iteration_matrix(double h) {
    for (int64_t i = 0; i < n_; ++i) {
      for (int64_t j = 0; j < n_; ++j) {
        matrix_[i * n_ + j] = (i == j ? 1.0 : 0.0) - h * kSdirkGamma * jacobian_y_[i * n_ + j];
      }
    }
    return lu_factor(matrix_, pivot_, n_);
  }

  // Stage i: Y = y + h sum_{j<i} a_ij F_j + h gamma f(t + c_i h, Y) by Newton's method (its
  // matrix from the latest Jacobian, then once more from one at the guess); its slope kept
  // in f_[i]. False if Newton does not converge.
  bool stage(int i, double h) {
    const double t = t_ + kSdirkC[i] * h;
    std::vector<double> base = y_;
    for (int j = 0; j < i; ++j) {
      for (int64_t k = 0; k < n_; ++k) base[k] += h * kSdirkA[i][j] * f_[j][k];
    }
    const std::vector<double>& previous_slope = i == 0 ? slope_ : f_[i - 1];
    std::vector<double>& y = y_stage_[i];
    std::vector<double> slope(static_cast<size_t>(n_)), correction(static_cast<size_t>(n_));
    for (int attempt = 0; attempt < 2; ++attempt) {
      for (int64_t k = 0; k < n_; ++k) y[k] = base[k] + h * kSdirkGamma * previous_slope[k];
      if (attempt == 1) jacobians(t, y);
      if (!iteration_matrix(h)) continue;
      double previous = INFINITY;
      for (int iteration = 0; iteration < kNewtonIterations; ++iteration) {
        system_.rhs(t, y.data(), slope.data());
        for (int64_t k = 0; k < n_; ++k) correction[k] = base[k] + h * kSdirkGamma * slope[k] - y[k];
        lu_solve(matrix_, pivot_, n_, correction.data(), 1);
        for (int64_t k = 0; k < n_; ++k) y[k] += correction[k];
        const double size = scaled_norm(correction, y, tolerances_);
        if (!std::isfinite(size) || size > 2 * previous) break;  // diverging
        previous = size;
        if (size <= kNewtonTolerance) {
          // The slope from the stage equation: exact where f would amplify Newton's residual.
          for (int64_t k = 0; k < n_; ++k) f_[i][k] = (y[k] - base[k]) / (h * kSdirkGamma);
          return true;
        }
      }
    }
    return false;
  }

  // The same stage's sensitivities: (I - h gamma J_y) S = S0 + h sum_{j<i} a_ij Fs_j
  // + h gamma [0 | J_theta], with J at the converged stage, which the next stage's Newton
  // then starts from.
  bool stage_sensitivities(int i, double h) {
    jacobians(t_ + kSdirkC[i] * h, y_stage_[i]);
    if (!iteration_matrix(h)) return false;
    std::vector<double>& s = s_stage_[i];
    s = s_;
    for (int j = 0; j < i; ++j) {
      for (size_t k = 0; k < s.size(); ++k) s[k] += h * kSdirkA[i][j] * fs_[j][k];
    }
    for (int64_t r = 0; r < n_; ++r) {
      for (int64_t q = 0; q < p_; ++q) s[r * m_ + n_ + q] += h * kSdirkGamma * jacobian_theta_[r * p_ + q];
    }
    lu_solve(matrix_, pivot_, n_, s.data(), m_);
    // dS/dt = J_y S + [0 | J_theta] at the stage.
    for (int64_t r = 0; r < n_; ++r) {
      for (int64_t j = 0; j < m_; ++j) {
        double sum = j >= n_ ? jacobian_theta_[r * p_ + (j - n_)] : 0.0;
        for (int64_t k = 0; k < n_; ++k) sum += jacobian_y_[r * n_ + k] * s[k * m_ + j];
        fs_[i][r * m_ + j] = sum;
      }
    }
    return true;
  }

  // Hairer, Norsett & Wanner's first step (Solving ODEs I, II.4) for an order-4 method.
  double initial_step() const {
    const double d0 = scaled_norm(y_, y_, tolerances_), d1 = scaled_norm(slope_, y_, tolerances_);
    const double h0 = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1;
    std::vector<double> point(y_), slope(static_cast<size_t>(n_)), change(static_cast<size_t>(n_));
    for (int64_t i = 0; i < n_; ++i) point[i] += h0 * slope_[i];
    system_.rhs(t_ + h0, point.data(), slope.data());
    for (int64_t i = 0; i < n_; ++i) change[i] = (slope[i] - slope_[i]) / h0;
    const double d2 = scaled_norm(change, y_, tolerances_);
    const double h1 = std::max(d1, d2) <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / std::max(d1, d2), 0.2);
    return std::min(100 * h0, h1);
  }

  const OdeSystem& system_;
  const OdeTolerances& tolerances_;
  int64_t n_, p_, m_;
  bool sensitivities_;
  double t_ = 0, h_ = 0;
  std::vector<double> y_, s_, slope_;  // slope_: f(t, y)
  std::array<std::vector<double>, kStages> f_, fs_, y_stage_, s_stage_;
  std::vector<double> jacobian_y_, jacobian_theta_, matrix_;
  std::vector<int64_t> pivot_;
};

}  // namespace

OdeSolution solve_sdirk4(const OdeSystem& system, double t0, const std::vector<double>& y0,
                         const std::vector<double>& times, const OdeTolerances& tolerances, bool sensitivities) {
  check_arguments(system, t0, y0, times, tolerances);
  SdirkIntegrator integrator(system, tolerances, sensitivities);
  integrator.start(t0, y0);
  OdeSolution solution;
  solution.states = system.states;
  solution.parameters = system.parameters;
  for (const double end : times) {
    int64_t steps = 0;
    while (integrator.t() < end) {
      if (++steps > tolerances.max_steps) {
        throw step_limit_reached("bdf (SDIRK4)", tolerances.max_steps, integrator.t(), end,
                                 "loosen the tolerances, or allow more steps");
      }
      integrator.step(end);
    }
    const auto& y = integrator.y();
    solution.values.insert(solution.values.end(), y.begin(), y.end());
    if (sensitivities)
      solution.sensitivities.insert(solution.sensitivities.end(), integrator.s().begin(), integrator.s().end());
  }
  return solution;
}

}  // namespace variate::ode
