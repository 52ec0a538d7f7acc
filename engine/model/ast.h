#pragma once
/// The syntax tree of a model: statements (data, random variables, deterministic nodes)
/// over expressions. Every node keeps the Span of its text. Nodes are plain values
/// (copyable, comparable with structurally_equal) so the canvas can hold and edit them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/model/source.h"

namespace variate::model {

enum class ExprKind {
  number,       // 2, 2.5
  name,         // theta
  negate,       // -x
  binary,       // x + y
  call,         // f(x, logits = y)
  index,        // X[:, 2:K]
  full_slice,   // ':' (only as an index item)
  range,        // lo:hi, inclusive (only as an index item)
  vector,       // [a, b, 1 - a]: a vector of scalars, or a matrix by rows of vectors
  conditional,  // c ? a : b, elementwise
  logical_not,  // !x
  density,      // Normal(mu, sigma).log_prob(x): a family's log density (log_cdf, log_ccdf) at x
};

enum class BinaryOp {
  add, subtract, multiply, divide, matmul, power,
  equal, not_equal, less, less_equal, greater, greater_equal,  // 1 or 0, elementwise
  logical_and, logical_or,
};

/// "+", "-", "*", "/", "@", "^", "==", "!=", "<", "<=", ">", ">=", "&&", "||".
const char* binary_op_text(BinaryOp op);

struct Argument;

/// The type of a function's argument or result: its rank (0, 0, 1, 2) and whether it holds
/// integers.
enum class ValueType { real, integer, vector, matrix };

struct Expr {
  ExprKind kind = ExprKind::number;
  Span span;
  /// number: its value, and whether it was written as an integer ("2" rather than "2.0").
  double value = 0;
  bool is_integer = false;
  /// name: the name; call: the function or distribution called (it starts the span);
  /// density: the method, "log_prob", "log_cdf" or "log_ccdf".
  std::string name;
  /// binary: the operator.
  BinaryOp op = BinaryOp::add;
  /// negate, logical_not: {operand}; binary: {lhs, rhs}; index: {base, item...};
  /// range: {lo, hi}; vector: {item...}; conditional: {condition, if_true, if_false};
  /// density: {the distribution's call, the point}.
  std::vector<Expr> operands;
  /// call: the arguments in order, positional ones first.
  std::vector<Argument> arguments;
  /// A call of a user function, once checked: the declared types of its arguments, then of
  /// its result; its body with the arguments in place of the parameters is operands[0]
  /// (the function is inlined: every backend evaluates that).
  std::vector<ValueType> types;

  static Expr number(double value, bool is_integer, Span span);
  static Expr identifier(std::string name, Span span);
  static Expr negate(Expr operand, Span span);
  static Expr binary(BinaryOp op, Expr lhs, Expr rhs, Span span);
  static Expr call(std::string function, std::vector<Argument> arguments, Span span);
  static Expr index(Expr base, std::vector<Expr> items, Span span);
  static Expr full_slice(Span span);
  static Expr range(Expr lo, Expr hi, Span span);
  static Expr vector(std::vector<Expr> items, Span span);
  static Expr conditional(Expr condition, Expr if_true, Expr if_false, Span span);
  static Expr logical_not(Expr operand, Span span);
  static Expr density(std::string method, Expr distribution, Expr point, Span span);
};

/// The methods a distribution takes in an expression: "log_prob", "log_cdf", "log_ccdf".
bool is_density_method(std::string_view name);

struct Argument {
  /// Empty for a positional argument; "log_rate" in Poisson(log_rate = f).
  std::string name;
  Span name_span;
  Expr value;

  bool is_named() const { return !name.empty(); }
};

enum class BaseType { real, integer };

/// Supports that override a distribution's own: `x: ordered[K] ~ Normal(0, 1)`.
enum class Constraint { none, ordered, positive_ordered, simplex, cholesky_corr };

/// "real", "int".
const char* base_type_name(BaseType type);
/// "ordered", ...; "" for none.
const char* constraint_name(Constraint constraint);
/// The constraint a name denotes, or nullopt for a name that is none.
std::optional<Constraint> constraint_from_name(std::string_view name);

/// `data NAME: real|int[DIMS]`, optionally with bounds checked when the data is bound:
/// `data sigma: real<lower=0>[J]`, `data p: real<lower=0, upper=1>`.
struct DataDecl {
  std::string name;
  Span name_span;
  BaseType type = BaseType::real;
  std::optional<Expr> lower;
  std::optional<Expr> upper;
  std::vector<Expr> dims;
};

/// `T[lo, hi]` after a distribution; a missing bound leaves that side open.
struct Truncation {
  Span span;  // from 'T' to ']'
  std::optional<Expr> lo;
  std::optional<Expr> hi;
};

/// `NAME: real<lower=L, upper=U>[DIMS]`: a parameter flat on its bounds, as Stan's
/// `real<lower=L, upper=U> NAME;` with no statement about it. L and U may read data and
/// earlier parameters; either may be absent.
struct DeclaredBounds {
  Span span;  // from 'real' to '>'
  std::optional<Expr> lower;
  std::optional<Expr> upper;
};

/// `NAME[DIMS] ~ Dist(args)` or `NAME: constraint[DIMS] ~ Dist(args)`; or
/// `guide NAME ~ Dist(args)`: the variational family of latent NAME (amortized when its
/// arguments come from a network of the data).
struct RandomStmt {
  std::string name;
  Span name_span;
  bool guide = false;
  Span guide_span;  // the word 'guide'
  /// iid copies; empty for one draw of the distribution's own shape.
  std::vector<Expr> dims;
  Constraint constraint = Constraint::none;
  Span constraint_span;
  std::vector<Expr> constraint_dims;
  /// A call expression: the distribution and its arguments.
  Expr distribution;
  /// `T[lo, hi]`, `T[lo, ]` or `T[, hi]` after the distribution: truncated to the interval.
  std::optional<Truncation> truncation;
  /// Set for `NAME: real<...>[DIMS]`, whose distribution is then `Flat()`.
  std::optional<DeclaredBounds> bounds;
};

/// `NAME = expr`.
struct Deterministic {
  std::string name;
  Span name_span;
  Expr value;
};

/// One statement of a recurrence, a deterministic node defined element by element:
///   sigma[1] = s1                                        (an initial element)
///   sigma[t] = sqrt(a0 + a1 * sigma[t - 1]) for t in 2:T  (the step, after them)
/// Element t may be a scalar or a vector (a row of a matrix); the step reads only
/// earlier elements, `NAME[t - k]`.
struct ElementDefinition {
  std::string name;
  Span name_span;
  /// The initial element's position (an integer literal), or the step's variable.
  Expr index;
  Expr value;
  /// The step's `for VARIABLE in LO:HI`; unset for an initial element.
  struct Loop {
    std::string variable;
    Span variable_span;
    Expr lo;
    Expr hi;
  };
  std::optional<Loop> loop;
};

/// `target += expr`: adds expr (summed) to the model's log density. `name` ("target[1]",
/// "target[2]", ... in program order) names its node; no variable can be called that.
struct TargetIncrement {
  std::string name;
  Span name_span;  // the word 'target'
  Expr value;
};

/// `# text` keeps everything after '#' (with its leading space) without trailing blanks.
struct Comment {
  std::string text;
  Span span;
};

/// "real", "int", "vector", "matrix".
const char* value_type_name(ValueType type);
/// 0 for real and int, 1 for vector, 2 for matrix.
int64_t value_type_rank(ValueType type);

struct FunctionParameter {
  std::string name;
  Span span;
  ValueType type = ValueType::real;
};

/// `function NAME(a: real, v: vector): vector = EXPR`: a pure function of its arguments
/// (EXPR reads them and calls functions, no names of the model), called in any expression.
struct FunctionDecl {
  std::string name;
  Span name_span;
  std::vector<FunctionParameter> parameters;
  ValueType result = ValueType::real;
  Span result_span;
  Expr body;
};

enum class StatementKind { data, random, deterministic, element, target, function };

struct Statement {
  std::variant<DataDecl, RandomStmt, Deterministic, ElementDefinition, TargetIncrement, FunctionDecl> node;
  Span span;
  /// Whole-line comments just above the statement (and those on its earlier lines when
  /// it spans several).
  std::vector<Comment> comments_before;
  /// A comment at the end of the statement's last line.
  std::optional<Comment> comment_after;
  /// Whether a blank line separates it from what comes before.
  bool blank_line_before = false;

  StatementKind kind() const { return static_cast<StatementKind>(node.index()); }
  const std::string& name() const;
  Span name_span() const;
  template <class T>
  const T* as() const { return std::get_if<T>(&node); }
};

struct Program {
  std::vector<Statement> statements;
  /// Comments after the last statement.
  std::vector<Comment> trailing_comments;
};

/// Equal apart from spans: what a round trip through the printer must preserve.
/// Comments and blank lines count for statements and programs.
bool structurally_equal(const Expr& a, const Expr& b);
bool structurally_equal(const Statement& a, const Statement& b);
bool structurally_equal(const Program& a, const Program& b);

}  // namespace variate::model
