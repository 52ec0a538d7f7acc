#pragma once
/// Where each latent variable lives in the unconstrained parameter vector that samplers
/// and optimizers move in, and how it maps back to its support (Stan's "unconstraining").

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/bijectors/bijector.h"
#include "engine/core/log_joint.h"
#include "engine/core/shape.h"
#include "engine/core/support.h"

namespace variate {

struct ParameterInfo {
  std::string name;
  Shape shape;  // constrained
  Support support;
  bijectors::BijectorPtr bijector;
  Shape unconstrained_shape;
  int64_t offset = 0;  // into the unconstrained vector
  int64_t size = 0;    // numel(unconstrained_shape)
  /// Its bounds are computed from other parameters (`b ~ Uniform(0, 1 - a)`), so its
  /// transform takes them at each point (point_supports.h); `support` and `bijector` are
  /// those at the central point, which only the support's kind may be read from.
  bool support_varies = false;
};

/// Values of every parameter, and the log|det J| of the transform, for one or B points.
struct ConstrainedPoint {
  ValueMap values;        // [*shape], or [B, *shape]
  at::Tensor log_det_jacobian;  // 0-dim, or [B]
};

class ParameterLayout {
 public:
  /// Appends a parameter; its bijector is chosen from `support`.
  /// @throws ArgumentError for a discrete support or a repeated name.
  void add(const std::string& name, const Shape& shape, const Support& support, bool support_varies = false);

  /// The latent variables of a model, in program order, found by running it once under
  /// a tape. Observed values come from the log joint's data; every other variable takes
  /// the value its bijector gives the unconstrained zero vector (so improper priors work
  /// and the layout does not depend on a random draw). A support whose bounds depend on
  /// those values varies with the point: the layout keeps the model to compute it.
  /// @throws ArgumentError if a latent variable is discrete (it cannot be sampled by HMC).
  static ParameterLayout from_model(const LogJoint& log_joint);

  /// Whether some parameter's support depends on the point.
  bool has_varying_supports() const { return static_cast<bool>(support_model_); }
  /// The model whose run gives the supports that vary (from_model sets the one it was
  /// given; a compiled model passes a cheaper run without its likelihood). `batches`: it
  /// evaluates a batch of points in one run (a compiled model does; a model written in
  /// C++ may index its values as one point's, so a batch is constrained point by point).
  void set_support_model(LogJoint model, bool batches = false);

  const std::vector<ParameterInfo>& parameters() const { return parameters_; }
  /// Length of the unconstrained vector.
  int64_t dimension() const { return dimension_; }
  /// @throws ArgumentError if there is no such parameter.
  const ParameterInfo& operator[](const std::string& name) const;

  /// @throws ArgumentError unless `unconstrained` has shape [d] or [B, d].
  void check_shape(const at::Tensor& unconstrained) const;
  /// Unconstrained [d] or [B, d] -> constrained values and log|det J|.
  ConstrainedPoint constrain(const at::Tensor& unconstrained) const;
  /// Each parameter's support where the parameters take `values` (one point): those that
  /// vary computed by the model, the others as they are.
  std::vector<Support> supports_at(const ValueMap& values) const;
  /// Constrained values by name ([*shape] each) -> unconstrained [d].
  /// @throws ArgumentError naming a missing parameter or a value of the wrong shape.
  at::Tensor unconstrain(const ValueMap& values) const;

 private:
  std::vector<ParameterInfo> parameters_;
  std::unordered_map<std::string, size_t> positions_;  // by name: a layout of 10^5 parameters in linear time
  int64_t dimension_ = 0;
  std::shared_ptr<const LogJoint> support_model_;  // set when some support varies
  bool support_model_batches_ = false;
};

}  // namespace variate
