#pragma once
/// DomainError, the error of an argument outside its domain, in a header of its own without
/// tensors: what reads files and summarizes draws (the commands that do not load LibTorch)
/// reports its errors with it too.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/argument_error.h"

namespace variate {

/// An argument outside its domain, with the parts of its message: the model language
/// words it with indices counted from 1, as its own indexing does.
class DomainError : public ArgumentError {
 public:
  /// `index`: the element's position in the argument (empty for a scalar argument).
  DomainError(std::string function, std::string argument, std::string requirement, double value,
              std::vector<int64_t> index);
  /// "Normal: argument 'sigma' must be positive, got -1 (at index [2])" with `base` 0, as
  /// what() says; with `base` 1, "(at index 3)" (and "(at index [2, 3])" for a matrix).
  std::string message(int base) const;
  /// The same, with the argument and the requirement worded by the caller (the model
  /// language's names for them).
  std::string message(int base, const std::string& argument, const std::string& requirement) const;
  const std::string& function() const { return function_; }
  const std::string& argument() const { return argument_; }
  /// "positive", "less than 'beta'", ...
  const std::string& requirement() const { return requirement_; }
  double value() const { return value_; }
  const std::vector<int64_t>& index() const { return index_; }

 private:
  std::string function_, argument_, requirement_;
  double value_;
  std::vector<int64_t> index_;
};

}  // namespace variate
