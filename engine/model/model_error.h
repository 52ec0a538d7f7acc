#pragma once
/// An error in a model that points at its text: evaluation and checking throw it, and the
/// front door turns it into a located diagnostic.

#include <string>

#include "engine/core/checks.h"
#include "engine/model/source.h"

namespace variate::model {

class ModelError : public ArgumentError {
 public:
  ModelError(Span span, const std::string& message) : ArgumentError(message), span_(span) {}
  Span span() const { return span_; }

 private:
  Span span_;
};

}  // namespace variate::model
