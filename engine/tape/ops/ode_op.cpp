#include "engine/tape/ops/ode_op.h"

#include <algorithm>

#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

struct OdeInstruction {
  std::shared_ptr<const RightHandSide> rhs;
  OdeSettings settings;
  /// The sensitivities' place in the arena: [T, N, N + P].
  int64_t sensitivities = -1;
  /// Elements of each passed real, operands 1, 2, ...
  std::vector<int64_t> passed_sizes;
};

// A right-hand side that cannot be evaluated at a point (a kernel failed in it).
struct RightHandSideFailed {};

// f and its Jacobians at (t, y) from the right-hand side's program, for one solve. The
// solvers ask for f and then the Jacobians at the same point: one forward sweep serves both.
class RightHandSideSweeps {
 public:
  RightHandSideSweeps(const RightHandSide& rhs, const std::vector<double>& theta)
      : rhs_(rhs),
        work_(rhs.program.make_work()),
        input_(static_cast<size_t>(1 + rhs.states + rhs.parameters)),
        gradient_(input_.size()) {
    std::copy(theta.begin(), theta.end(), input_.begin() + 1 + rhs.states);
  }

  ode::OdeSystem system() {
    ode::OdeSystem s;
    s.states = rhs_.states;
    s.parameters = rhs_.parameters;
    s.rhs = [this](double t, const double* y, double* dydt) {
      evaluate(t, y);
      std::copy_n(work_.values.data() + rhs_.output, rhs_.states, dydt);
    };
    s.jacobians = [this](double t, const double* y, double* jacobian_y, double* jacobian_theta) {
      evaluate(t, y);
      for (int64_t i = 0; i < rhs_.states; ++i) {
        rhs_.program.gradient_of(rhs_.output + i, work_, gradient_.data());
        std::copy_n(gradient_.begin() + 1, rhs_.states, jacobian_y + i * rhs_.states);
        std::copy_n(gradient_.begin() + 1 + rhs_.states, rhs_.parameters, jacobian_theta + i * rhs_.parameters);
      }
    };
    return s;
  }

 private:
  // The forward sweep at (t, y), unless the arena holds it already (a reverse sweep leaves
  // the values as they were).
  void evaluate(double t, const double* y) {
    if (swept_ && input_[0] == t && std::equal(y, y + rhs_.states, input_.begin() + 1)) return;
    input_[0] = t;
    std::copy(y, y + rhs_.states, input_.begin() + 1);
    swept_ = rhs_.program.evaluate(input_.data(), work_);
    if (!swept_) throw RightHandSideFailed{};
  }

  const RightHandSide& rhs_;
  Work work_;
  std::vector<double> input_, gradient_;
  bool swept_ = false;
};

void ode_forward(const Instruction& ins, Sweep& s) {
  const auto& op = *static_cast<const OdeInstruction*>(ins.aux);
  const RightHandSide& rhs = *op.rhs;
  const int64_t n = rhs.states;
  std::vector<double> y0(s.values + ins.in[0], s.values + ins.in[0] + n), theta;
  bool sensitivities = ins.varying[0];
  for (size_t k = 0; k < op.passed_sizes.size(); ++k) {
    const double* value = s.values + ins.in[k + 1];
    theta.insert(theta.end(), value, value + op.passed_sizes[k]);
    sensitivities = sensitivities || ins.varying[k + 1];
  }
  RightHandSideSweeps sweeps(rhs, theta);
  ode::OdeSolution solution;
  try {
    solution = ode::solve_ode(op.settings.solver, sweeps.system(), op.settings.t0, y0, op.settings.times,
                              op.settings.tolerances, sensitivities);
  } catch (const ode::StepLimitError&) {
    s.failed = s.rejected = true;  // explained by LibTorch's evaluation at the point
    return;
  } catch (const RightHandSideFailed&) {
    s.failed = true;
    return;
  }
  std::copy(solution.values.begin(), solution.values.end(), s.values + ins.out);
  std::copy(solution.sensitivities.begin(), solution.sensitivities.end(), s.values + op.sensitivities);
}

void ode_backward(const Instruction& ins, Sweep& s) {
  const auto& op = *static_cast<const OdeInstruction*>(ins.aux);
  const int64_t n = op.rhs->states, m = n + op.rhs->parameters;
  std::vector<double> total(static_cast<size_t>(m), 0.0);
  const double* sensitivity = s.values + op.sensitivities;
  for (int64_t row = 0; row < ins.n; ++row) {  // (k, i) of y_i(t_k)
    const double g = s.adjoints[ins.out + row];
    if (g == 0) continue;
    for (int64_t j = 0; j < m; ++j) total[j] += g * sensitivity[row * m + j];
  }
  if (ins.varying[0]) {
    for (int64_t j = 0; j < n; ++j) s.adjoints[ins.in[0] + j] += total[j];
  }
  int64_t offset = n;
  for (size_t k = 0; k < op.passed_sizes.size(); ++k) {
    if (ins.varying[k + 1]) {
      for (int64_t e = 0; e < op.passed_sizes[k]; ++e) s.adjoints[ins.in[k + 1] + e] += total[offset + e];
    }
    offset += op.passed_sizes[k];
  }
}

}  // namespace

Slot emit_ode(ProgramBuilder& builder, std::shared_ptr<const RightHandSide> rhs, OdeSettings settings, const Slot& y0,
              const std::vector<Slot>& passed) {
  if (passed.size() + 1 > Instruction{}.in.size()) {
    throw Unsupported("the tape passes at most five reals to an ODE's right-hand side");
  }
  const int64_t n = rhs->states, m = n + rhs->parameters, times = static_cast<int64_t>(settings.times.size());
  auto op = std::make_shared<OdeInstruction>();
  op->rhs = std::move(rhs);
  op->settings = std::move(settings);
  op->sensitivities = builder.varying({times * n * m}).offset;
  Instruction ins;
  ins.forward = ode_forward;
  ins.backward = ode_backward;
  ins.name = "ode";
  ins.in[0] = y0.offset;
  ins.varying[0] = y0.varying;
  for (size_t k = 0; k < passed.size(); ++k) {
    ins.in[k + 1] = passed[k].offset;
    ins.varying[k + 1] = passed[k].varying;
    op->passed_sizes.push_back(passed[k].size);
  }
  const Slot out = builder.varying({times, n});
  ins.out = out.offset;
  ins.n = times * n;
  ins.aux = builder.keep(op);
  builder.append(ins);
  return out;
}

}  // namespace variate::tape
