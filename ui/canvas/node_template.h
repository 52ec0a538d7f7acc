#pragma once
/// What a palette entry adds to the model: a data input, an expression, a user function,
/// or a random variable of a family. Travels in drags as text ("random:Normal").

#include <QString>

namespace variate::ui {

struct NodeTemplate {
  enum class Kind { RealData, IntData, Expression, Function, Random };
  Kind kind = Kind::Random;
  QString family;  // Random only

  static constexpr const char* kMimeType = "application/x-variate-node-template";
  QString encode() const;
  /// False for text that is not a template.
  static bool decode(const QString& text, NodeTemplate* result);
};

}  // namespace variate::ui
