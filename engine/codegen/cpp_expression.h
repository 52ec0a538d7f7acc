#pragma once
/// Model expressions as C++ a person would write on the engine's API: operators for
/// + - * /, engine functions (vt::exp, vt::matmul, vt::pow) for the rest, 0-based
/// indexing. Each expression gets a static type (a C++ integer, a C++ double, a tensor or
/// a random variable; integer or real; its rank), which decides the C++ that gives exactly
/// the tensor operations the model language performs: `1 / N` becomes `1.0 / N`, an
/// integer array meeting a real number is converted to float64 first, `beta[1]` becomes
/// `beta[0]`.

#include <cstdint>
#include <map>
#include <string>

#include "engine/model/ast.h"

namespace variate::codegen {

/// How a value exists in the generated C++.
enum class Form {
  cpp_int,   // int64_t (sizes, integer literals, integer scalar data)
  cpp_real,  // double (real literals and arithmetic on numbers)
  tensor,    // at::Tensor
  variable,  // vt::RandomVariable (converts to its value)
  elements,  // std::vector<at::Tensor>: a recurrence's elements so far, inside its definition
};

struct CppValue {
  std::string text;
  Form form = Form::tensor;
  bool integer = false;  // integer-valued (int64 tensors, sizes)
  int64_t rank = 0;      // dimensions of one point's value (of one element, for elements)
  int precedence = 100;  // of the C++ text: 100 postfix, 90 unary, 80 * /, 70 + -

  bool is_number() const { return form == Form::cpp_int || form == Form::cpp_real; }
};

/// The C++ of each name in scope.
using Scope = std::map<std::string, CppValue>;

class ExpressionWriter {
 public:
  explicit ExpressionWriter(const Scope& scope) : scope_(scope) {}

  /// @throws model::ModelError located at the offending subexpression, for ranks and
  /// types the model language would reject when it binds data.
  CppValue write(const model::Expr& expr) const;
  /// An int64_t size (an integer scalar known from the data).
  std::string size(const model::Expr& expr) const;
  /// `value` as something that converts to at::Tensor in a constructor argument.
  static std::string tensor_text(const CppValue& value);
  /// `value` as an at::Tensor of its own type: integers as int64, reals as float64.
  static std::string typed_tensor_text(const CppValue& value);

 private:
  CppValue number(const model::Expr& expr) const;
  CppValue name(const model::Expr& expr) const;
  CppValue negate(const model::Expr& expr) const;
  CppValue binary(const model::Expr& expr) const;
  CppValue matmul(const model::Expr& expr, const CppValue& a, const CppValue& b) const;
  CppValue compare(const model::Expr& expr, const CppValue& a, const CppValue& b) const;
  CppValue logical_not(const model::Expr& expr) const;
  CppValue vector(const model::Expr& expr) const;
  CppValue conditional(const model::Expr& expr) const;
  CppValue call(const model::Expr& expr) const;
  CppValue density(const model::Expr& expr) const;
  CppValue index(const model::Expr& expr) const;
  /// `index - 1` for a 1-based integer index, simplified where it is a literal or ends in "+ 1".
  std::string zero_based(const model::Expr& expr) const;

  const Scope& scope_;
};

/// A distribution's argument as its constructor takes it: a named alternative
/// parameterization's in its tag (`vt::logits(p)`), the others as they are.
std::string tagged_argument(const std::string& parameter, const std::string& text);

/// Wraps `text` in parentheses if its precedence is below `needed`.
std::string operand(const CppValue& value, int needed);

}  // namespace variate::codegen
