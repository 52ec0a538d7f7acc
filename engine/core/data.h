#pragma once
/// Named data a model reads: observed values, sizes, covariates.

#include <map>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

namespace variate {

/// Data values by name. A random variable whose name is in the data is observed.
///
///   Data d;
///   d.set("J", 8).set("y", y).set("sigma", sigma);
///   auto theta = Normal("theta", 0.0, 1.0, {d.dim("J")});
class Data {
 public:
  Data& set(const std::string& name, at::Tensor value);
  Data& set(const std::string& name, int64_t value);
  Data& set(const std::string& name, double value);

  bool contains(const std::string& name) const;
  /// @throws ArgumentError "data has no variable 'sigma'".
  const at::Tensor& operator[](const std::string& name) const;
  /// An integer size such as N or J. @throws ArgumentError if missing or not an integer.
  int64_t dim(const std::string& name) const;
  std::vector<std::string> names() const;
  const std::map<std::string, at::Tensor>& values() const { return values_; }

 private:
  std::map<std::string, at::Tensor> values_;
};

}  // namespace variate
