#pragma once
/// The graph view of a model that the canvas draws: one node per name, edges from each name
/// to the names that read it (labelled by the role it plays there), and plates — boxes
/// labelled by a dimension — nested as the sizes are. A user function is drawn once, with an
/// edge to every node (and function) whose expressions call it. Everything is in program order and
/// identified by stable ids, so the canvas can keep its layout across edits.
///
///   const ModelGraph graph = build_graph(*result.checked, result.model ? &*result.model : nullptr);
///   for (const auto& edge : graph.edges) draw(edge.from, edge.to, edge.roles.front());
///
/// Plate membership follows plate notation (Koller & Friedman 2009, sec. 6.4.1; PyMC's
/// model_to_graphviz): a node is in the plates of the sizes it declares, `real[N, K]`
/// putting it in plate N and, nested there, plate K. A node that declares no sizes takes the
/// plates all its plated parents share; without shapes that is structural only (a reduction
/// such as colmeans(X) keeps X's plates), with a compiled model it keeps only the outermost
/// plates whose sizes equal its leading dimensions, in order (sum(x) leaves x's plate).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/shape.h"
#include "engine/model/checker.h"
#include "engine/model/source.h"

namespace variate::model {

class CompiledModel;

/// How the canvas draws a node, after the usual Bayesian-network conventions.
enum class NodeGlyph {
  rectangle,       // data
  ellipse,         // latent variable
  shaded_ellipse,  // observed variable
  double_outline,  // deterministic: transformed data or derived quantity
  network,         // a neural network (its weights are learned)
  factor,          // a `target +=` term: a small filled square, as in factor graphs
};

NodeGlyph node_glyph(NodeKind kind);

/// One argument of a node's distribution, by the parameter it binds to.
struct GraphArgument {
  std::string parameter;  // "mu", "log_rate", "component" (a Mixture's)
  std::string text;       // canonical text: "theta", "Normal(mu, sigma)"
};

struct GraphNode {
  std::string id;  // the name
  NodeKind kind = NodeKind::data;
  /// `data` declarations: "real[J]", "int"; constrained variables: "ordered[K]"; else "".
  std::string declared_type;
  /// The size texts the node declares (from its data declaration, else its `~` sizes or
  /// constraint): {"N", "K"}; empty when its plates are inherited.
  std::vector<std::string> sizes;
  /// `~` nodes: the family ("Normal"), its arguments in the parameterization's order and
  /// the whole call ("Normal(theta, sigma)"); empty otherwise.
  std::string distribution;
  std::vector<GraphArgument> arguments;
  std::string distribution_text;
  /// `=` nodes: the expression ("theta_trans * tau + mu"); a recurrence: its statements
  /// joined by "; "; a `target +=` term: its expression; empty otherwise.
  std::string expression;
  /// The spans of its statements (declaration, assignment, distribution) in program order.
  std::vector<Span> spans;
  /// Its value's shape; set only when the graph was built with a compiled model.
  std::optional<Shape> shape;
  /// Plate ids from the outermost to the one the node is drawn in; empty for none.
  std::vector<std::string> plates;
};

/// A user function, `function NAME(a: real, v: vector): vector = EXPR`: no value of the
/// model, so in no plate; its edges go to what calls it.
struct GraphFunction {
  std::string id;         // the name
  std::string signature;  // "(t: real, z: vector, theta: vector): vector"
  std::string body;       // the expression's canonical text
  Span span;              // the declaration
};

/// parent -> child: `from` is read by `to`'s statements.
struct GraphEdge {
  std::string from;
  std::string to;
  /// What `from` is in `to`, distinct, in order of first use (most edges have one): the
  /// distribution parameter it feeds ("mu", "Sigma", "log_rate", "component.sigma" inside a
  /// Mixture's component), "value" inside an `=` expression, "size" in a declared size,
  /// "index" inside an index (a[county_idx]: county_idx is an index of log_radon); from a
  /// function, "call" where `to` calls it and "dy/dt" where an ODE solver's call in `to`
  /// takes it as the right-hand side.
  std::vector<std::string> roles;
};

/// A box labelled by a dimension. Nested plates are distinct from top-level ones with the
/// same size: `X: real[N, K]` and `b[K] ~ ...` give plates "N", "N/K" and "K".
struct Plate {
  std::string id;      // the size text, prefixed by "<parent id>/" when nested
  std::string size;    // the size expression's canonical text: "J", "K - 1"
  std::string parent;  // the enclosing plate's id; "" at top level
  /// The size's value; set only when the graph was built with a compiled model.
  std::optional<int64_t> extent;
};

struct ModelGraph {
  std::vector<GraphNode> nodes;          // program order
  std::vector<GraphFunction> functions;  // program order
  std::vector<GraphEdge> edges;          // by first reference in program order
  std::vector<Plate> plates;             // by first use; a parent comes before its children

  /// nullptr when absent.
  const GraphNode* find_node(const std::string& id) const;
  const GraphFunction* find_function(const std::string& id) const;
  const GraphEdge* find_edge(const std::string& from, const std::string& to) const;
  const Plate* find_plate(const std::string& id) const;
};

/// The graph of a checked model (one whose diagnostics have no errors). With `compiled`
/// (built from the same model), nodes carry shapes, plates carry extents and inherited
/// plates are checked against the shapes.
ModelGraph build_graph(const CheckedModel& model, const CompiledModel* compiled = nullptr);

}  // namespace variate::model
