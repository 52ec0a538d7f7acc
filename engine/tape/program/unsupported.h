#pragma once
/// Thrown while compiling a tape for what has no kernel yet; the model then runs on
/// LibTorch, and the message says why ("the tape has no kernel for Mixture of Weibull").

#include <stdexcept>
#include <string>

namespace variate::tape {

class Unsupported : public std::runtime_error {
 public:
  explicit Unsupported(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace variate::tape
