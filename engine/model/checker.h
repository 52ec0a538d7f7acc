#pragma once
/// Checks a parsed model's structure, without data: every name is defined (anywhere: the
/// model is a graph, evaluated in dependency order), calls name known functions and
/// distributions with the right arguments, sizes and indices come from the data, and
/// there are no cycles. It classifies each name as data, latent, observed or deterministic.

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/model/ast.h"
#include "engine/model/diagnostic.h"

namespace variate::model {

enum class NodeKind {
  data,             // `data y: real[N]`, not given a distribution
  observed,         // data (or a deterministic node of data only) with a distribution
  latent,           // a random variable inference infers
  transformed_data, // deterministic, from data only: computed once when data is bound
  derived,          // deterministic, depends on latent variables: recorded in the draws
  network,          // `NAME = mlp(...)`: a neural network's output; its weights are learned
  log_density,      // `target += expr`: a term added to the model's log density
};

/// "data", "observed", "latent", "transformed data", "derived quantity", "network",
/// "log-density term".
const char* node_kind_name(NodeKind kind);

/// Everything the model says about one name. Statements are indices into the program.
struct Node {
  std::string name;
  NodeKind kind = NodeKind::data;
  std::optional<size_t> declaration;   // `data NAME: ...`
  std::optional<size_t> assignment;    // `NAME = ...`
  std::optional<size_t> distribution;  // `NAME ~ ...`
  std::optional<size_t> guide;         // `guide NAME ~ ...`
  /// `NAME[1] = ...` and `NAME[t] = ... for t in 2:T`, in program order: a recurrence.
  std::vector<size_t> elements;
  std::optional<size_t> increment;     // `target += ...` (NAME is "target[1]", ...)
  /// Names this node reads (in its assignment or distribution), in order of first use.
  std::vector<std::string> dependencies;

  /// Defined by `=` or element by element.
  bool is_deterministic() const { return assignment || !elements.empty(); }
  /// The statement that completes a deterministic node's value (a recurrence's step).
  std::optional<size_t> definition() const {
    if (assignment) return assignment;
    if (!elements.empty()) return elements.back();
    return std::nullopt;
  }

  bool is_data_valued() const {
    return kind == NodeKind::data || kind == NodeKind::observed ||
           kind == NodeKind::transformed_data;
  }
};

/// Latent variables sampled partially non-centered (model/reparameterize.h), by the user's
/// name: lambda for every element (one value) or for each element of a vector.
using Centering = std::map<std::string, std::vector<double>>;

struct CheckedModel {
  Program program;
  /// One per distinct name, in order of first appearance.
  std::vector<Node> nodes;
  /// Each node's position in `nodes` by name (check() fills it): find() in constant time,
  /// so that compiling a model of 10^5 statements is not quadratic.
  std::unordered_map<std::string, size_t> node_positions;
  /// Statement indices (assignments and distributions) in an order where each comes after
  /// the statements producing the values it reads; source order where the model allows.
  /// A latent variable with a guide takes its value from the guide, which comes first.
  std::vector<size_t> evaluation_order;
  /// Set when the program is a reparameterized one: each such variable is a deterministic
  /// node here, computed from its standardized stand-in, and is presented as a parameter.
  Centering centering;

  /// Whether the model has networks or guides: it is fit by amortized variational
  /// inference (engine/deep), not sampled.
  bool is_deep() const;
  /// The name and statement of the first node that makes it so (a guided latent's guide
  /// or a network), for the messages of what cannot take them.
  std::optional<std::pair<std::string, size_t>> first_deep_node() const;

  /// nullptr if there is no such name.
  const Node* find(const std::string& name) const;
  /// How many dimensions `name`'s value has where the model text alone fixes it: a data
  /// declaration's sizes; 1 for a constraint type (2 for cholesky_corr); a distribution's
  /// draw rank plus its `~` sizes, or just the draw rank when every argument is a literal
  /// number. nullopt where data shapes or broadcasting decide (`=` nodes, arguments that
  /// may broadcast) and for unknown names.
  std::optional<size_t> rank_of(const std::string& name) const;
  /// A recurrence's statements in program order (its initial elements, then its step);
  /// empty for other names.
  std::vector<const ElementDefinition*> elements_of(const std::string& name) const;
  /// The constraint type a `NAME: ordered[K] ~ ...` statement declares; none otherwise.
  Constraint constraint_of(const std::string& name) const;
};

/// Checks `program` (taken over: the result owns it) and reports every problem found.
/// The result is complete only when `diagnostics` has no errors.
CheckedModel check(Program program, const Source& source, Diagnostics& diagnostics);

}  // namespace variate::model
