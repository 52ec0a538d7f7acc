#pragma once
/// Reading a model's declared inputs from a data set, checked against their declarations
/// as the model language checks `data NAME: int|real[DIMS]`: present, of the declared
/// shape, and integers where declared int. C++ models (and exported programs) use them to
/// bind data once, before they are run.
///
///   const int64_t J = vt::int_input(given, "J");
///   const at::Tensor y = vt::real_input(given, "y", {J});

#include <cstdint>
#include <string>

#include <ATen/core/Tensor.h>

#include "engine/core/data.h"
#include "engine/core/shape.h"

namespace variate {

/// An integer scalar, such as a size. @throws ArgumentError "data 'N' is declared but
/// missing from the data", "data 'N' has shape [3], expected []", or "data 'N' is
/// declared int but holds the real value 2.5".
int64_t int_input(const Data& data, const std::string& name);

/// An integer array of `shape`, as int64. @throws ArgumentError as above.
at::Tensor int_input(const Data& data, const std::string& name, const Shape& shape);

/// A real scalar or array of `shape`, as float64. @throws ArgumentError if it is missing
/// or has another shape.
at::Tensor real_input(const Data& data, const std::string& name, const Shape& shape = {});

/// Checks `data NAME: real<lower=L>` (or `upper=`, with `lower` false): every element of
/// `value` within `limit`, a scalar or one per element; NaN is within no bound, as Stan
/// checks constrained data. `limit_text` is the bound as the model writes it.
///   vt::check_bound("sigma", sigma, at::scalar_tensor(0.0, at::kDouble), true, "0");
/// @throws ArgumentError "data 'sigma' must be >= 0 (its lower bound), got -1 at sigma[3]",
/// or for a limit of another shape.
void check_bound(const std::string& name, const at::Tensor& value, const at::Tensor& limit, bool lower,
                 const std::string& limit_text);

}  // namespace variate
