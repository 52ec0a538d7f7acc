#include "engine/core/random_variable.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/core/checks.h"
#include "engine/core/distribution.h"

namespace variate {
namespace {

thread_local bool batched_evaluation = false;

}  // namespace

BatchedEvaluationScope::BatchedEvaluationScope() : previous_(batched_evaluation) {
  batched_evaluation = true;
}

BatchedEvaluationScope::~BatchedEvaluationScope() { batched_evaluation = previous_; }

struct RandomVariable::State {
  RandomVariableSpec spec;
  mutable at::Tensor value;  // drawn lazily
};

RandomVariable::RandomVariable(RandomVariableSpec spec) : state_(std::make_shared<State>()) {
  if (spec.name.empty()) throw ArgumentError("RandomVariable: argument 'name' must not be empty");
  if (!spec.distribution) {
    throw ArgumentError("RandomVariable '" + spec.name + "': argument 'distribution' is null");
  }
  state_->spec = std::move(spec);
  if (state_->spec.value) {
    if (!batched_evaluation) check_value_shape(*state_->spec.value);
    state_->value = *state_->spec.value;
  }
}

// As Edward2 checks a given value: it must have sample_shape + batch_shape + event_shape,
// or log_prob would broadcast it silently — a [1] value for a [3] variable would count
// one density three times, a [3] value for iid copies [3] of a scalar would count three.
void RandomVariable::check_value_shape(const at::Tensor& value) const {
  const Shape expected = shape();
  if (value.sizes() != c10::IntArrayRef(expected)) {
    throw ArgumentError("RandomVariable '" + name() + "': the given value has shape " +
                        to_string(value.sizes()) + ", expected " + to_string(expected));
  }
}

const std::string& RandomVariable::name() const { return state_->spec.name; }
const distributions::Distribution& RandomVariable::distribution() const {
  return *state_->spec.distribution;
}
const Shape& RandomVariable::sample_shape() const { return state_->spec.sample_shape; }

Shape RandomVariable::shape() const {
  const auto& d = distribution();
  return concat(concat(sample_shape(), d.batch_shape()), d.event_shape());
}

Support RandomVariable::support() const {
  return state_->spec.support ? *state_->spec.support : distribution().support();
}

const at::Tensor& RandomVariable::value() const {
  if (!state_->value.defined()) {
    state_->value = sample(at::detail::getDefaultCPUGenerator());
  }
  return state_->value;
}

bool RandomVariable::has_value() const { return state_->value.defined(); }

at::Tensor RandomVariable::sample(at::Generator generator) const {
  return distribution().sample(sample_shape(), std::move(generator));
}

at::Tensor RandomVariable::log_prob() const { return distribution().log_prob(value()); }

#define VARIATE_BINARY_OPERATOR(op)                                                  \
  at::Tensor operator op(const RandomVariable& a, const RandomVariable& b) {          \
    return a.value() op b.value();                                                   \
  }                                                                                  \
  at::Tensor operator op(const RandomVariable& a, const at::Tensor& b) {              \
    return a.value() op b;                                                           \
  }                                                                                  \
  at::Tensor operator op(const at::Tensor& a, const RandomVariable& b) {              \
    return a op b.value();                                                           \
  }                                                                                  \
  at::Tensor operator op(const RandomVariable& a, double b) { return a.value() op b; } \
  at::Tensor operator op(double a, const RandomVariable& b) {                         \
    return at::scalar_tensor(a, b.value().options()) op b.value();                   \
  }

VARIATE_BINARY_OPERATOR(+)
VARIATE_BINARY_OPERATOR(-)
VARIATE_BINARY_OPERATOR(*)
VARIATE_BINARY_OPERATOR(/)
#undef VARIATE_BINARY_OPERATOR

at::Tensor operator-(const RandomVariable& a) { return -a.value(); }

at::Tensor matmul(const at::Tensor& a, const at::Tensor& b) { return at::matmul(a, b); }

at::Tensor matvec(const at::Tensor& matrix, const at::Tensor& vector) {
  if (matrix.dim() != 2) {
    throw ArgumentError("matvec: argument 'matrix' must be 2-D, got shape " +
                        to_string(matrix.sizes()));
  }
  if (vector.dim() < 1 || vector.size(-1) != matrix.size(1)) {
    throw ArgumentError("matvec: argument 'vector' must end in " +
                        std::to_string(matrix.size(1)) + " entries, got shape " +
                        to_string(vector.sizes()));
  }
  // A single vector takes the matrix-vector kernel; a batch, one matrix product.
  return vector.dim() == 1 ? at::mv(matrix, vector) : at::matmul(vector, matrix.t());
}

}  // namespace variate
