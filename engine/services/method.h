#pragma once
/// The inference methods a run is made by, named once: the project stores them by
/// store::to_string ("nuts", "advi", "optimize", "pathfinder", "amortized"), the studio
/// shows method_label, and `variate` runs each with method_command.

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "engine/store/project_records.h"

namespace variate::services {

using Method = store::RunMethod;

/// Every method, in the order the studio lists them.
const std::vector<Method>& all_methods();

/// "NUTS", "ADVI", "Optimize (L-BFGS)", "Pathfinder", "SBC" or "Amortized VI".
const char* method_label(Method method);

/// The `variate` command that runs it: "sample", "fit", "optimize", "pathfinder", "sbc"; a deep
/// model's training is `fit` too (it is the model that makes `fit` train).
const char* method_command(Method method);

/// Whether its draws are independent draws from an approximation (ADVI, Laplace,
/// Pathfinder): one chain, no warmup, no sampler statistics; R-hat and ESS do not apply
/// and the PSIS k-hat of their importance ratios says how far they can be trusted.
bool draws_are_independent(Method method);

/// A set of methods: those that take a setting.
class Methods {
 public:
  Methods() = default;
  Methods(std::initializer_list<Method> methods);
  /// Every method.
  static Methods all();
  bool contains(Method method) const { return (bits_ & bit(method)) != 0; }
  bool empty() const { return bits_ == 0; }

 private:
  static uint32_t bit(Method method) { return 1u << static_cast<unsigned>(method); }
  uint32_t bits_ = 0;
};

}  // namespace variate::services
