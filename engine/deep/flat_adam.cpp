#include "engine/deep/flat_adam.h"

#include <cmath>

#include <ATen/ATen.h>
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include "engine/core/argument_error.h"

namespace variate::deep {
namespace {

// One pass: the moments, then the weight. The same arithmetic as torch::optim::Adam
// (bias corrections folded into the step size and the denominator).
// `gradient(i)` gives element i of the gradient.
template <class T, class Gradient>
void adam_pass(T* __restrict weights, const Gradient& gradient, T* __restrict m, T* __restrict v, int64_t n,
               double beta1, double beta2, double step_size, double correction2_sqrt, double epsilon) {
  const T b1 = static_cast<T>(beta1), b2 = static_cast<T>(beta2);
  const T one_b1 = static_cast<T>(1 - beta1), one_b2 = static_cast<T>(1 - beta2);
  const T rate = static_cast<T>(step_size), root = static_cast<T>(correction2_sqrt), eps = static_cast<T>(epsilon);
  for (int64_t i = 0; i < n; ++i) {
    const T g = gradient(i);
    m[i] = b1 * m[i] + one_b1 * g;
    v[i] = b2 * v[i] + one_b2 * g * g;
    weights[i] -= rate * m[i] / (std::sqrt(v[i]) / root + eps);
  }
}

}  // namespace

FlatAdam::FlatAdam(at::Tensor weights, AdamOptions options, at::Tensor first_moment, at::Tensor second_moment)
    : weights_(std::move(weights)), options_(options) {
  if (!weights_.is_cpu() || weights_.dim() != 1 || !weights_.is_contiguous() ||
      (weights_.scalar_type() != at::kFloat && weights_.scalar_type() != at::kDouble)) {
    throw ArgumentError("FlatAdam: the weights must be a contiguous CPU vector of float32 or float64");
  }
  first_moment_ = first_moment.defined() ? first_moment : at::zeros_like(weights_);
  second_moment_ = second_moment.defined() ? second_moment : at::zeros_like(weights_);
  for (const at::Tensor* m : {&first_moment_, &second_moment_}) {
    if (!m->sizes().equals(weights_.sizes()) || m->scalar_type() != weights_.scalar_type() || !m->is_contiguous()) {
      throw ArgumentError("FlatAdam: the moments must be contiguous vectors like the weights");
    }
  }
}

void FlatAdam::step(const at::Tensor& gradients) { step_on_sum({gradients}); }

void FlatAdam::step_on_sum(const std::vector<at::Tensor>& parts) {
  const int64_t n = weights_.numel();
  for (const at::Tensor& part : parts) {
    if (part.scalar_type() != weights_.scalar_type() || !part.is_contiguous() || part.numel() < n) {
      throw ArgumentError("FlatAdam::step: the gradients must be contiguous vectors of the weights' dtype");
    }
  }
  if (parts.empty()) throw ArgumentError("FlatAdam::step: no gradient");
  ++steps_;
  const double t = static_cast<double>(steps_);
  const double correction1 = 1 - std::pow(options_.beta1(), t);
  const double correction2 = 1 - std::pow(options_.beta2(), t);
  const double step_size = options_.learning_rate() / correction1;
  AT_DISPATCH_FLOATING_TYPES(weights_.scalar_type(), "FlatAdam::step", [&] {
    scalar_t* w = weights_.data_ptr<scalar_t>();
    scalar_t* m = first_moment_.data_ptr<scalar_t>();
    scalar_t* v = second_moment_.data_ptr<scalar_t>();
    const auto pass = [&](const auto& gradient) {
      adam_pass<scalar_t>(w, gradient, m, v, n, options_.beta1(), options_.beta2(), step_size, std::sqrt(correction2),
                          options_.epsilon());
    };
    const scalar_t* a = parts[0].data_ptr<scalar_t>();
    if (parts.size() == 1) {
      pass([a](int64_t i) { return a[i]; });
    } else if (parts.size() == 2) {
      const scalar_t* b = parts[1].data_ptr<scalar_t>();
      pass([a, b](int64_t i) { return a[i] + b[i]; });
    } else {
      std::vector<const scalar_t*> all;
      for (const auto& part : parts) all.push_back(part.data_ptr<scalar_t>());
      pass([&all](int64_t i) {
        scalar_t g = all[0][i];
        for (size_t r = 1; r < all.size(); ++r) g += all[r][i];
        return g;
      });
    }
  });
}

void FlatAdam::save(torch::serialize::OutputArchive& archive) const {
  archive.write("first_moment", first_moment_);
  archive.write("second_moment", second_moment_);
  archive.write("steps", at::tensor(static_cast<int64_t>(steps_)));
}

void FlatAdam::load(torch::serialize::InputArchive& archive) {
  at::Tensor m, v, steps;
  archive.read("first_moment", m);
  archive.read("second_moment", v);
  archive.read("steps", steps);
  if (!m.sizes().equals(first_moment_.sizes()) || !v.sizes().equals(second_moment_.sizes()) ||
      m.scalar_type() != first_moment_.scalar_type()) {
    throw ArgumentError("the checkpoint's optimizer state is for " + std::to_string(m.numel()) +
                        " weights; this model has " + std::to_string(first_moment_.numel()));
  }
  first_moment_.copy_(m);
  second_moment_.copy_(v);
  steps_ = steps.item<int64_t>();
}

}  // namespace variate::deep
