#include "engine/optimize/maximum_likelihood.h"

#include <set>
#include <string>

namespace variate {

UnconstrainedTarget likelihood_only(const UnconstrainedTarget& target) {
  std::set<std::string> priors;
  for (const auto& parameter : target.layout().parameters()) priors.insert(parameter.name);
  const LogJoint& joint = target.log_joint();
  return UnconstrainedTarget(LogJoint(joint.model(), joint.observed(), priors), target.layout(), target.device());
}

}  // namespace variate
