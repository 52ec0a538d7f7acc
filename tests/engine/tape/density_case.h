#pragma once
/// One log-density term checked against the engine's LibTorch distribution: its
/// arguments (and value) are data or functions of theta, evaluated by LibTorch in both
/// programs (on the tape through a test op whose backward is LibTorch's vector-Jacobian
/// product), so what is compared is the sink alone.
///
///   DensityCase c{"Poisson", 1, "log_rate, 7 counts", 7};
///   c.arguments = {of_theta([](const at::Tensor& t) { return t; })};
///   c.value = data(at::tensor({0., 3, 1, 2, 0, 5, 1}));
///   c.make = [](const auto& a) { return std::make_shared<distributions::Poisson>(LogRate{a[0]});
///   }; QVERIFY2(check(c).empty(), ...);

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>

#include "engine/core/distribution.h"
#include "engine/core/random_variable.h"
#include "engine/tape/densities/log_density_ops.h"

#include "tests/support/tape_check.h"

namespace variate::testing {

using TensorFunction = std::function<at::Tensor(const at::Tensor&)>;

/// Data, or a function of theta.
struct Input {
  at::Tensor data;
  TensorFunction of_theta;
};

inline Input data(const at::Tensor& values) { return {values.to(at::kDouble), nullptr}; }
inline Input of_theta(TensorFunction f) { return {at::Tensor(), std::move(f)}; }

struct DensityCase {
  std::string family;
  size_t parameterization = 0;
  std::string label;
  int64_t dimension = 0;
  std::vector<Input> arguments;
  Input value;
  /// Mixture only: the component's family, parameterization and arguments.
  std::string component_family;
  size_t component_parameterization = 0;
  std::vector<Input> component_arguments;
  /// The LibTorch distribution from the evaluated arguments, then the component's.
  std::function<DistributionPtr(const std::vector<at::Tensor>&)> make;
  Shape sample_shape;
  TapeComparison options;
};

namespace detail {

inline std::deque<TensorFunction>& maps() {
  static std::deque<TensorFunction> registry;
  return registry;
}

inline at::Tensor theta_of(const tape::Instruction& op, const tape::Sweep& s) {
  return at::from_blob(s.values + op.in[0], {op.dims[1]}, at::kDouble).clone();
}

// out = f(theta): op.dims[0] names f, op.dims[1] is theta's size.
inline void map_forward(const tape::Instruction& op, tape::Sweep& s) {
  const at::Tensor y = maps()[static_cast<size_t>(op.dims[0])](theta_of(op, s)).contiguous();
  std::copy(y.data_ptr<double>(), y.data_ptr<double>() + op.n, s.values + op.out);
}

inline void map_backward(const tape::Instruction& op, tape::Sweep& s) {
  at::AutoGradMode grad_mode(true);
  const at::Tensor theta = theta_of(op, s).requires_grad_(true);
  const at::Tensor y = maps()[static_cast<size_t>(op.dims[0])](theta);
  if (!y.requires_grad() || y.numel() == 0) return;
  const at::Tensor adjoint = at::from_blob(s.adjoints + op.out, y.sizes(), at::kDouble).clone();
  const auto g = torch::autograd::grad({y}, {theta}, {adjoint}, false, false, true);
  if (!g[0].defined()) return;
  const at::Tensor gc = g[0].contiguous();
  for (int64_t i = 0; i < op.dims[1]; ++i) s.adjoints[op.in[0] + i] += gc.data_ptr<double>()[i];
}

inline tape::Slot emit_input(tape::ProgramBuilder& b, const tape::Slot& theta, const Input& in) {
  if (in.data.defined()) {
    const at::Tensor c = in.data.contiguous();
    return b.constant(c.sizes().vec(),
                      std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel()));
  }
  const Shape shape = in.of_theta(at::zeros({theta.size}, at::kDouble)).sizes().vec();
  const tape::Slot out = b.varying(shape);
  maps().push_back(in.of_theta);
  tape::Instruction op;
  op.forward = map_forward;
  op.backward = map_backward;
  op.name = "torch_map";
  op.out = out.offset;
  op.n = out.size;
  op.in[0] = theta.offset;
  op.varying[0] = true;
  op.dims = {static_cast<int64_t>(maps().size() - 1), theta.size, 0, 0};
  b.append(op);
  return out;
}

inline at::Tensor evaluate(const Input& in, const at::Tensor& theta) {
  return in.data.defined() ? in.data : in.of_theta(theta);
}

inline tape::DensityTerm term_of(tape::ProgramBuilder& b, const tape::Slot& theta,
                                 const DensityCase& c) {
  tape::DensityTerm term;
  term.family = c.family;
  term.parameterization = c.parameterization;
  for (const Input& in : c.arguments) term.arguments.push_back(emit_input(b, theta, in));
  if (!c.component_family.empty()) {
    auto component = std::make_shared<tape::DensityTerm>();
    component->family = c.component_family;
    component->parameterization = c.component_parameterization;
    for (const Input& in : c.component_arguments) {
      component->arguments.push_back(emit_input(b, theta, in));
    }
    term.component = component;
  }
  term.value = emit_input(b, theta, c.value);
  term.sample_shape = c.sample_shape;
  return term;
}

}  // namespace detail

/// A term of `family` over `arguments` and `value` (for the tests that only ask which group
/// takes a family).
inline tape::DensityTerm make_term(const std::string& family, size_t parameterization,
                                   std::vector<tape::Slot> arguments, tape::Slot value) {
  tape::DensityTerm t;
  t.family = family;
  t.parameterization = parameterization;
  t.arguments = std::move(arguments);
  t.value = std::move(value);
  return t;
}

inline void build_case(tape::ProgramBuilder& b, const tape::Slot& theta, const DensityCase& c) {
  tape::emit_log_density(b, detail::term_of(b, theta, c));
}

/// The LibTorch log density of the case (validation on, as log_prob's reference; a
/// distribution that throws for its arguments, such as MultiNormal for a covariance that
/// is not positive definite, gives -inf, as the sampler counts it).
inline at::Tensor reference_of(const DensityCase& c, const at::Tensor& theta) {
  std::vector<at::Tensor> arguments;
  for (const Input& in : c.arguments) arguments.push_back(detail::evaluate(in, theta));
  for (const Input& in : c.component_arguments) arguments.push_back(detail::evaluate(in, theta));
  DistributionPtr distribution;
  try {
    distribution = c.make(arguments);
  } catch (const std::exception&) {
    return at::full({}, -INFINITY, at::kDouble);
  }
  // + 0 theta: a gradient (of zeros) also where every argument is data.
  return distribution->log_prob(detail::evaluate(c.value, theta)).sum() + 0 * theta.sum();
}

/// "" when the tape agrees with LibTorch; otherwise what differed. Also checks that the
/// sink never wrote the adjoint of data or a constant.
inline std::string check(const DensityCase& c) {
  const std::string name = c.family + " (" + c.label + "): ";
  const std::string error = compare_tape_to_torch(
      c.dimension,
      [&](tape::ProgramBuilder& b, const tape::Slot& theta) { build_case(b, theta, c); },
      [&](const at::Tensor& theta) { return reference_of(c, theta); }, c.options);
  if (!error.empty()) return name + error;

  tape::ProgramBuilder b(c.dimension);
  build_case(b, b.parameters(), c);
  const tape::Program program = std::move(b).finish();
  tape::Work work = program.make_work();
  std::vector<double> q(static_cast<size_t>(c.dimension), 0.3);
  std::vector<double> gradient(q.size());
  program.log_density(q.data(), gradient.data(), work);
  for (int64_t i = program.resolve(tape::kConstantTag); i < program.arena_size(); ++i) {
    if (work.adjoints[static_cast<size_t>(i)] != 0) {
      return name + "wrote the adjoint of constant slot " + std::to_string(i);
    }
  }
  return "";
}

}  // namespace variate::testing
