#include "tests/support/tape_check.h"

#include <cmath>
#include <random>
#include <sstream>

#include <torch/csrc/autograd/autograd.h>

namespace variate::testing {
namespace {

std::vector<double> weights(int64_t n) {
  std::vector<double> w(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) w[static_cast<size_t>(i)] = 0.5 + 0.37 * static_cast<double>((i * 7) % 5);
  return w;
}

void weighted_sum_sink(const tape::Instruction& op, tape::Sweep& s) {
  const double* x = s.values + op.in[0];
  double* ax = s.adjoints + op.in[0];
  const double* w = s.values + op.in[1];
  for (int64_t i = 0; i < op.n; ++i) {
    s.lp += w[i] * x[i];
    if (op.varying[0]) ax[i] += w[i];
  }
}

bool close(double a, double b, double tolerance) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b));
}

std::string format(const std::vector<double>& x) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (size_t i = 0; i < x.size(); ++i) out << (i ? ", " : "") << x[i];
  out << "]";
  return out.str();
}

}  // namespace

void add_weighted_sum(tape::ProgramBuilder& builder, const tape::Slot& x) {
  const tape::Slot w = builder.constant({x.size}, weights(x.size));
  tape::Instruction op;
  op.forward = weighted_sum_sink;
  op.sink = true;
  op.name = "weighted_sum";
  op.n = x.size;
  op.in[0] = x.offset;
  op.varying[0] = x.varying;
  op.in[1] = w.offset;
  builder.append(op);
}

at::Tensor weighted_sum(const at::Tensor& x) {
  const std::vector<double> w = weights(x.numel());
  const at::Tensor wt = at::tensor(w, at::kDouble).reshape(x.sizes());
  return (wt * x).sum();
}

std::string compare_tape_to_torch(int64_t dimension, const TapeBuild& build,
                                  const TorchReference& reference, const TapeComparison& options) {
  tape::ProgramBuilder builder(dimension);
  build(builder, builder.parameters());
  const tape::Program program = std::move(builder).finish();
  tape::Work work = program.make_work();

  std::vector<std::vector<double>> points = options.fixed_points;
  std::mt19937_64 random(options.seed);
  std::normal_distribution<double> normal;
  for (int p = 0; p < options.points; ++p) {
    std::vector<double> q(static_cast<size_t>(dimension));
    for (double& x : q) x = options.shift + options.scale * normal(random);
    points.push_back(q);
  }
  for (const auto& q : points) {
    std::vector<double> gradient(static_cast<size_t>(dimension));
    const double lp = program.log_density(q.data(), gradient.data(), work);

    at::AutoGradMode grad_mode(true);
    const at::Tensor theta = at::tensor(q, at::kDouble).requires_grad_(true);
    const at::Tensor expected = reference(theta);
    double expected_lp = expected.item<double>();
    if (std::isnan(expected_lp)) expected_lp = -INFINITY;  // the tape reports NaN as -inf
    if (!close(lp, expected_lp, options.tolerance)) {
      std::ostringstream out;
      out.precision(17);
      out << "value at " << format(q) << ": tape " << lp << ", LibTorch " << expected_lp;
      return out.str();
    }
    if (!std::isfinite(expected_lp)) continue;
    const auto g = torch::autograd::grad({expected}, {theta}, {}, false, false, true);
    const at::Tensor expected_gradient = g[0].defined() ? g[0] : at::zeros_like(theta);
    double scale = 1.0;  // the largest finite partial
    for (int64_t i = 0; i < dimension; ++i) {
      const double g = std::abs(expected_gradient[i].item<double>());
      if (std::isfinite(g)) scale = std::max(scale, g);
    }
    for (int64_t i = 0; i < dimension; ++i) {
      const double want = expected_gradient[i].item<double>();
      const double got = gradient[static_cast<size_t>(i)];
      const bool same_special = (std::isnan(want) && std::isnan(got)) || (std::isinf(want) && got == want);
      if (!(std::abs(got - want) <= options.tolerance * scale) && !same_special) {
        std::ostringstream out;
        out.precision(17);
        out << "gradient[" << i << "] at " << format(q) << ": tape " << got << ", LibTorch " << want;
        return out.str();
      }
    }
  }
  return "";
}

}  // namespace variate::testing
