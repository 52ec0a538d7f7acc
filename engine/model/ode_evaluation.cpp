#include "engine/model/ode_evaluation.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/custom_function.h>

#include "engine/model/evaluator.h"
#include "engine/model/model_error.h"
#include "engine/model/printer.h"

namespace variate::model {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

const auto kF64 = at::TensorOptions().dtype(at::kDouble);

// A gradient's elements into a Jacobian's row; zeros where autograd found no path.
void copy_row(const at::Tensor& gradient, int64_t size, double* row) {
  if (!gradient.defined()) {
    std::fill(row, row + size, 0.0);
    return;
  }
  const at::Tensor values = gradient.to(at::kDouble).contiguous();
  std::copy(values.data_ptr<double>(), values.data_ptr<double>() + size, row);
}

// f(t, y, passed...) on LibTorch. The real arguments passed to f are read from one flat
// vector of parameters (the sensitivities' theta); integer ones are data, kept as given.
class TorchRightHandSide {
 public:
  TorchRightHandSide(const OdeProblem& problem, const std::vector<Value>& passed, int64_t states)
      : problem_(problem), passed_(passed), states_(states) {
    for (const Value& value : passed_) {
      offsets_.push_back(parameters_);
      if (!value.integer) parameters_ += value.tensor.numel();
    }
  }

  int64_t parameters() const { return parameters_; }

  // The passed reals, flattened in order: theta.
  at::Tensor theta() const {
    std::vector<at::Tensor> parts;
    for (const Value& value : passed_) {
      if (!value.integer) parts.push_back(value.tensor.to(at::kDouble).reshape(-1));
    }
    return parts.empty() ? at::zeros({0}, kF64) : at::cat(parts);
  }

  at::Tensor operator()(const at::Tensor& t, const at::Tensor& y, const at::Tensor& theta) const {
    std::map<std::string, Value> environment;
    environment[ode_argument_name(0)] = {t, false, false};
    environment[ode_argument_name(1)] = {y, false, false};
    for (size_t i = 0; i < passed_.size(); ++i) {
      const Value& value = passed_[i];
      environment[ode_argument_name(2 + i)] =
          value.integer
              ? value
              : Value{theta.slice(0, offsets_[i], offsets_[i] + value.tensor.numel()).reshape(value.tensor.sizes()),
                      false, false};
    }
    ConstantCache constants;
    const std::set<std::string> no_data;
    Evaluator evaluator(environment, no_data, constants, problem_.checking);
    const Value dydt = evaluator.evaluate(problem_.call->operands[0]);
    if (dydt.rank() != 1 || dydt.tensor.size(0) != states_) {
      throw ModelError(problem_.call->span, "the right-hand side '" + problem_.call->arguments[0].value.name +
                                                "' has shape " + variate::to_string(dydt.point_shape()) +
                                                " for a state of " + std::to_string(states_) + " elements");
    }
    return dydt.tensor.to(at::kDouble);
  }

  ode::OdeSystem system(const at::Tensor& theta) const {
    ode::OdeSystem s;
    s.states = states_;
    s.parameters = parameters_;
    const at::Tensor fixed = theta.detach().contiguous();
    s.rhs = [this, fixed](double t, const double* y, double* dydt) {
      at::NoGradGuard no_grad;
      const at::Tensor value =
          (*this)(at::scalar_tensor(t, kF64), at::from_blob(const_cast<double*>(y), {states_}, kF64).clone(), fixed)
              .contiguous();
      std::copy(value.data_ptr<double>(), value.data_ptr<double>() + states_, dydt);
    };
    s.jacobians = [this, fixed](double t, const double* y, double* jacobian_y, double* jacobian_theta) {
      at::AutoGradMode enable(true);
      const at::Tensor y_leaf = at::from_blob(const_cast<double*>(y), {states_}, kF64).clone().requires_grad_(true);
      const at::Tensor theta_leaf = fixed.clone().requires_grad_(true);
      const at::Tensor value = (*this)(at::scalar_tensor(t, kF64), y_leaf, theta_leaf);
      for (int64_t i = 0; i < states_; ++i) {
        const variable_list rows = torch::autograd::grad({value[i]}, {y_leaf, theta_leaf}, {}, true, false, true);
        copy_row(rows[0], states_, jacobian_y + i * states_);
        copy_row(rows[1], parameters_, jacobian_theta + i * parameters_);
      }
    };
    return s;
  }

 private:
  const OdeProblem& problem_;
  const std::vector<Value>& passed_;
  int64_t states_;
  std::vector<int64_t> offsets_;
  int64_t parameters_ = 0;
};

// The solution as an autograd function of y0 and theta.
struct OdeFunction : public torch::autograd::Function<OdeFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& y0, const at::Tensor& theta,
                            const OdeProblem* problem, const TorchRightHandSide* rhs) {
    const bool sensitivities = problem->sensitivities || y0.requires_grad() || theta.requires_grad();
    const at::Tensor start = y0.detach().contiguous();
    const std::vector<double> initial(start.data_ptr<double>(), start.data_ptr<double>() + start.numel());
    ode::OdeSolution solution;
    try {
      solution = ode::solve_ode(problem->form.solver, rhs->system(theta), problem->t0, initial, problem->times,
                                problem->tolerances, sensitivities);
    } catch (const ode::StepLimitError& e) {
      throw ModelError(problem->call->span, "'" + to_string(*problem->call) + "': " + e.what());
    } catch (const std::invalid_argument& e) {
      if (dynamic_cast<const ModelError*>(&e)) throw;
      throw ModelError(problem->call->span, problem->call->name + ": " + e.what());
    }
    const int64_t times = static_cast<int64_t>(problem->times.size()), n = start.numel();
    if (sensitivities) {
      ctx->saved_data["sensitivities"] =
          at::tensor(solution.sensitivities, kF64).reshape({times, n, n + rhs->parameters()});
    }
    return at::tensor(solution.values, kF64).reshape({times, n});
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    const at::Tensor s = ctx->saved_data["sensitivities"].toTensor();  // [T, N, N + P]
    const int64_t n = s.size(1);
    const at::Tensor total = at::einsum("ti,tij->j", {grad_outputs[0].to(at::kDouble), s});
    return {total.slice(0, 0, n), total.slice(0, n), at::Tensor(), at::Tensor()};
  }
};

}  // namespace

at::Tensor solve_ode_on_torch(const OdeProblem& problem, const at::Tensor& y0, const std::vector<Value>& passed) {
  const TorchRightHandSide rhs(problem, passed, y0.numel());
  const at::Tensor y = OdeFunction::apply(y0.to(at::kDouble), rhs.theta(), &problem, &rhs);
  return at::isFloatingType(y0.scalar_type()) ? y.to(y0.scalar_type()) : y;  // float32 models stay float32
}

}  // namespace variate::model
