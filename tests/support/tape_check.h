#pragma once
/// Checks a tape kernel against LibTorch autograd: the same function of an unconstrained
/// vector theta[d], built once as a tape program and once as a tensor expression, must
/// agree in value and gradient at random points.
///
///   const std::string error = compare_tape_to_torch(
///       3,
///       [](tape::ProgramBuilder& b, const tape::Slot& theta) {
///         add_weighted_sum(b, tape::emit_unary(b, "exp", theta));   // a sink over the op
///       },
///       [](const at::Tensor& theta) { return weighted_sum(at::exp(theta)); });
///   QVERIFY2(error.empty(), error.c_str());

#include <functional>
#include <string>
#include <vector>

#include <ATen/ATen.h>

#include "engine/tape/program/builder.h"

namespace variate::testing {

struct TapeComparison {
  int points = 20;
  double scale = 1.0;            // theta ~ scale * N(0, 1) + shift
  double shift = 0.0;
  std::vector<std::vector<double>> fixed_points;  // checked too (edge values)
  double tolerance = 1e-12;      // relative: |a - b| <= tolerance * max(1, |b|)
  uint64_t seed = 1;
};

using TapeBuild = std::function<void(tape::ProgramBuilder&, const tape::Slot& theta)>;
using TorchReference = std::function<at::Tensor(const at::Tensor& theta)>;

/// "" when they agree everywhere; otherwise what differed, where.
std::string compare_tape_to_torch(int64_t dimension, const TapeBuild& build,
                                  const TorchReference& reference, const TapeComparison& options = {});

/// A sink adding sum_i w_i x_i with fixed pseudo-random weights w (the same ones that
/// weighted_sum uses for a tensor of the same size): turns an op's output into a scalar
/// whose gradient exercises every output adjoint.
void add_weighted_sum(tape::ProgramBuilder& builder, const tape::Slot& x);
at::Tensor weighted_sum(const at::Tensor& x);

}  // namespace variate::testing
