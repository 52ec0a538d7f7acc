#include "engine/target/pointwise_log_joint.h"

#include <exception>
#include <thread>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/distribution.h"
#include "engine/distributions/flat.h"

namespace variate {
namespace {

constexpr const char* kFactor = "__pointwise_log_density";

// A factor whose log density is a given tensor: how the points' densities join the total
// of the evaluation that asked for them.
class Potential : public distributions::Distribution {
 public:
  explicit Potential(at::Tensor log_density) : log_density_(std::move(log_density)) {}
  std::string name() const override { return "Potential"; }
  at::Tensor log_prob(const at::Tensor&) const override { return log_density_; }
  at::Tensor sample(const Shape&, at::Generator) const override {
    throw ArgumentError("Potential: a factor of the log density has no draws");
  }
  Support support() const override { return Support::real(); }

 private:
  at::Tensor log_density_;
};

// log_joint at the point `values` (batch 0) or at each of `batch` points, on a thread of its
// own: tracers are per thread, and the tracers of the evaluation that asked (its log-joint
// tracer above all) must not intercept the model's variables.
at::Tensor point_by_point(const LogJoint& log_joint, const ParameterLayout& layout,
                          const ValueMap& values, int64_t batch) {
  const bool grad = at::GradMode::is_enabled();
  const bool validate = validation_enabled();
  at::Tensor result;
  std::exception_ptr error;
  std::thread worker([&] {
    try {
      at::AutoGradMode grad_mode(grad);
      ValidationGuard validation(validate);
      if (batch == 0) {
        result = log_joint(values);
        return;
      }
      std::vector<at::Tensor> densities;
      for (int64_t b = 0; b < batch; ++b) {
        ValueMap point;
        for (const auto& p : layout.parameters()) point[p.name] = values.at(p.name)[b].reshape(p.shape);
        densities.push_back(log_joint(point));
      }
      result = at::stack(densities);
    } catch (...) {
      error = std::current_exception();
    }
  });
  worker.join();
  if (error) std::rethrow_exception(error);
  return result;
}

}  // namespace

LogJoint pointwise_log_joint(const LogJoint& log_joint, const ParameterLayout& layout) {
  Model model = [log_joint, layout] {
    // Flat stand-ins receive the evaluation's values: [*shape] for one point, [B, *shape]
    // ([B, 1] for scalars) for a batch.
    ValueMap values;
    int64_t batch = 0;
    for (const auto& p : layout.parameters()) {
      const at::Tensor value = Flat(p.name, p.shape).value();
      if (value.dim() > static_cast<int64_t>(p.shape.size())) batch = value.size(0);
      values[p.name] = value;
    }
    const at::Tensor density = point_by_point(log_joint, layout, values, batch);
    make_random_variable({kFactor, std::make_shared<Potential>(density), {},
                          at::zeros({}, at::kDouble), std::nullopt});
  };
  return LogJoint(std::move(model), Data());
}

}  // namespace variate
