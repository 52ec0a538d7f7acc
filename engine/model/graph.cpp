#include "engine/model/graph.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "engine/model/compiled_model.h"
#include "engine/model/distribution_table.h"
#include "engine/model/ode_call.h"
#include "engine/model/printer.h"

namespace variate::model {
namespace {

// One reference to a name in a statement, with the role it plays there.
struct Use {
  std::string name;
  std::string role;
};

void collect(const Expr& e, const std::string& role, std::vector<Use>& out) {
  switch (e.kind) {
    case ExprKind::name:
      out.push_back({e.name, role});
      return;
    case ExprKind::index:
      collect(e.operands[0], role, out);
      for (size_t i = 1; i < e.operands.size(); ++i) collect(e.operands[i], "index", out);
      return;
    case ExprKind::call:  // builders keep the uses of names that are user functions
      if (is_ode_call(e)) {
        // Its first argument names the right-hand side, a function.
        if (!e.arguments.empty() && e.arguments[0].value.kind == ExprKind::name) {
          out.push_back({e.arguments[0].value.name, "dy/dt"});
        }
      } else {
        out.push_back({e.name, "call"});
      }
      for (size_t i = is_ode_call(e) ? 1 : 0; i < e.arguments.size(); ++i) collect(e.arguments[i].value, role, out);
      return;
    default:
      for (const auto& operand : e.operands) collect(operand, role, out);
      return;
  }
}

// The uses in a distribution call, each argument's labelled by the parameter it binds to
// (prefixed by "component." inside a Mixture's component). `arguments`, when given,
// receives the call's top-level arguments.
void collect_distribution(const Expr& call, const std::string& prefix, std::vector<Use>& out,
                          std::vector<GraphArgument>* arguments) {
  const DistributionSignature* signature =
      call.kind == ExprKind::call ? find_distribution(call.name) : nullptr;
  const std::optional<BoundArguments> bound =
      signature ? bind_arguments(*signature, call) : std::nullopt;
  if (!bound) {  // only in a model the checker rejected; keep its references anyway
    collect(call, "value", out);
    return;
  }
  const auto& parameters = signature->parameterizations[bound->parameterization];
  for (size_t p = 0; p < parameters.size(); ++p) {
    const Expr& argument = call.arguments[bound->argument_of_parameter[p]].value;
    const std::string role = prefix + parameters[p].name;
    if (arguments) arguments->push_back({parameters[p].name, to_string(argument)});
    if (parameters[p].is_distribution) {
      collect_distribution(argument, role + ".", out, nullptr);
    } else {
      collect(argument, role, out);
    }
  }
}

std::vector<Use> statement_uses(const Statement& statement) {
  std::vector<Use> uses;
  if (const auto* data = statement.as<DataDecl>()) {
    for (const auto& dim : data->dims) collect(dim, "size", uses);
    for (const auto* bound : {&data->lower, &data->upper}) {
      if (*bound) collect(**bound, "bound", uses);
    }
  } else if (const auto* assignment = statement.as<Deterministic>()) {
    collect(assignment->value, "value", uses);
  } else if (const auto* random = statement.as<RandomStmt>()) {
    for (const auto& dim : random->dims) collect(dim, "size", uses);
    for (const auto& dim : random->constraint_dims) collect(dim, "size", uses);
    collect_distribution(random->distribution, "", uses, nullptr);
    if (random->truncation) {
      for (const auto* bound : {&random->truncation->lo, &random->truncation->hi}) {
        if (*bound) collect(**bound, "truncation", uses);
      }
    }
    if (random->bounds) {
      for (const auto* bound : {&random->bounds->lower, &random->bounds->upper}) {
        if (*bound) collect(**bound, "bound", uses);
      }
    }
  } else if (const auto* element = statement.as<ElementDefinition>()) {
    // The step's variable is no node; add_edges skips names that are not.
    collect(element->value, "value", uses);
    if (element->loop) collect(element->loop->hi, "size", uses);
  } else if (const auto* increment = statement.as<TargetIncrement>()) {
    collect(increment->value, "value", uses);
  } else if (const auto* function = statement.as<FunctionDecl>()) {
    // Its names are its arguments, whatever nodes share them: only its calls count.
    collect(function->body, "value", uses);
    uses.erase(std::remove_if(uses.begin(), uses.end(), [](const Use& use) { return use.role == "value"; }),
               uses.end());
  }
  return uses;
}

std::string signature_text(const FunctionDecl& function) {
  std::string text = "(";
  for (size_t i = 0; i < function.parameters.size(); ++i) {
    text += (i ? ", " : "") + function.parameters[i].name + ": " + value_type_name(function.parameters[i].type);
  }
  return text + "): " + value_type_name(function.result);
}

std::string join_sizes(const std::vector<Expr>& dims) {
  if (dims.empty()) return "";
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + to_string(dims[i]);
  return text + "]";
}

class GraphBuilder {
 public:
  GraphBuilder(const CheckedModel& model, const CompiledModel* compiled)
      : model_(model), compiled_(compiled) {}

  ModelGraph run() {
    for (const Statement& statement : statements()) {
      if (const auto* function = statement.as<FunctionDecl>()) add_function(*function, statement.span);
    }
    for (const Node& node : model_.nodes) add_node(node);
    for (size_t s = 0; s < statements().size(); ++s) add_edges(s);
    declared_plates();
    inherited_plates();
    return std::move(graph_);
  }

 private:
  const std::vector<Statement>& statements() const { return model_.program.statements; }

  GraphNode& graph_node(const std::string& name) { return graph_.nodes[index_.at(name)]; }

  void add_node(const Node& node) {
    GraphNode g;
    g.id = node.name;
    g.kind = node.kind;
    std::vector<size_t> own;
    for (const auto& s : {node.declaration, node.assignment, node.distribution, node.increment}) {
      if (s) own.push_back(*s);
    }
    own.insert(own.end(), node.elements.begin(), node.elements.end());
    std::sort(own.begin(), own.end());
    for (size_t s : own) g.spans.push_back(statements()[s].span);
    if (node.assignment) {
      g.expression = to_string(statements()[*node.assignment].as<Deterministic>()->value);
    }
    // A recurrence shows its statements; a log-density term its expression.
    for (size_t s : node.elements) g.expression += (g.expression.empty() ? "" : "; ") + to_string(statements()[s]);
    if (node.increment) g.expression = to_string(statements()[*node.increment].as<TargetIncrement>()->value);
    if (node.distribution) {
      const auto* random = statements()[*node.distribution].as<RandomStmt>();
      if (random->distribution.kind == ExprKind::call) g.distribution = random->distribution.name;
      g.distribution_text = to_string(random->distribution);
      std::vector<Use> ignored;
      collect_distribution(random->distribution, "", ignored, &g.arguments);
      if (random->constraint != Constraint::none) {
        g.declared_type = constraint_name(random->constraint) + join_sizes(random->constraint_dims);
      }
      if (random->bounds) {  // `real<lower=L, upper=U>[K]`, as the text declares it
        const std::string text = to_string(statements()[*node.distribution]);
        g.declared_type = text.substr(text.find(": ") + 2);
      }
      const auto& dims = random->dims.empty() ? random->constraint_dims : random->dims;
      if (!dims.empty()) declared_dims_[node.name] = &dims;
    }
    // The data declaration is what the value is: it decides the type and sizes.
    if (node.declaration) {
      const auto* data = statements()[*node.declaration].as<DataDecl>();
      g.declared_type = base_type_name(data->type) + join_sizes(data->dims);
      declared_dims_[node.name] = &data->dims;
    }
    if (declared_dims_.count(node.name)) {
      for (const auto& dim : *declared_dims_[node.name]) g.sizes.push_back(to_string(dim));
    }
    if (compiled_ && !node.increment) g.shape = compiled_->shape(node.name);  // a term has no value
    index_[node.name] = graph_.nodes.size();
    graph_.nodes.push_back(std::move(g));
  }

  void add_function(const FunctionDecl& function, Span span) {
    functions_.insert(function.name);
    graph_.functions.push_back({function.name, signature_text(function), to_string(function.body), span});
  }

  static bool is_call(const Use& use) { return use.role == "call" || use.role == "dy/dt"; }

  // A use that is an edge: of a node by its name, of a function by a call.
  bool is_edge(const Use& use) const {
    return is_call(use) ? functions_.count(use.name) > 0 : index_.count(use.name) > 0;
  }

  void add_edges(size_t s) {
    const std::string& child = statements()[s].name();
    for (const Use& use : statement_uses(statements()[s])) {
      // A name never feeds itself: an observed node's data declaration is the node.
      if (use.name == child || !is_edge(use)) continue;
      const auto key = std::make_pair(use.name, child);
      auto it = edge_index_.find(key);
      if (it == edge_index_.end()) {
        it = edge_index_.emplace(key, graph_.edges.size()).first;
        graph_.edges.push_back({use.name, child, {}});
      }
      auto& roles = graph_.edges[it->second].roles;
      if (std::find(roles.begin(), roles.end(), use.role) == roles.end()) roles.push_back(use.role);
    }
  }

  // The plate for `size` inside `parent` ("" for the top level), created on first use.
  Plate& plate(const std::string& parent, const std::string& size) {
    const std::string id = parent.empty() ? size : parent + "/" + size;
    for (auto& p : graph_.plates) {
      if (p.id == id) return p;
    }
    graph_.plates.push_back({id, size, parent, std::nullopt});
    return graph_.plates.back();
  }

  Plate* find_plate(const std::string& id) {
    for (auto& p : graph_.plates) {
      if (p.id == id) return &p;
    }
    return nullptr;
  }

  // In program order, so plates are listed by first use. A size repeated in one
  // declaration (`real[K, K]`, cholesky_corr[K]) is one plate: a box cannot nest itself.
  void declared_plates() {
    for (GraphNode& g : graph_.nodes) {
      const auto it = declared_dims_.find(g.id);
      if (it == declared_dims_.end()) continue;
      std::vector<std::string> seen;
      std::string parent;
      for (size_t i = 0; i < g.sizes.size(); ++i) {
        if (std::find(seen.begin(), seen.end(), g.sizes[i]) != seen.end()) continue;
        seen.push_back(g.sizes[i]);
        Plate& p = plate(parent, g.sizes[i]);
        if (g.shape && !p.extent && i < g.shape->size()) p.extent = (*g.shape)[i];
        g.plates.push_back(p.id);
        parent = p.id;
      }
    }
  }

  // In evaluation order, so a node's parents have their plates before it.
  void inherited_plates() {
    for (size_t s : model_.evaluation_order) {
      const Node& node = *model_.find(statements()[s].name());
      if (declared_dims_.count(node.name) || node.declaration) continue;
      // The value is the assignment's when there is one (an observed `=` node).
      if (node.is_deterministic() && s != *node.definition()) continue;
      GraphNode& g = graph_node(node.name);
      g.plates = shared_plates(statement_uses(statements()[s]));
      if (g.shape) keep_matching(g);
    }
  }

  // The longest chain of plates every plated parent is in.
  std::vector<std::string> shared_plates(const std::vector<Use>& uses) {
    std::optional<std::vector<std::string>> shared;
    for (const Use& use : uses) {
      if (is_call(use) || !index_.count(use.name)) continue;
      const auto& plates = graph_node(use.name).plates;
      if (plates.empty()) continue;
      if (!shared) {
        shared = plates;
        continue;
      }
      size_t common = 0;
      while (common < shared->size() && common < plates.size() &&
             (*shared)[common] == plates[common]) {
        ++common;
      }
      shared->resize(common);
    }
    return shared.value_or(std::vector<std::string>{});
  }

  // Plates are outer dimensions: keep the leading ones whose extents are the node's
  // leading sizes, so a reduction or a slice leaves the plate it no longer spans.
  void keep_matching(GraphNode& g) {
    size_t keep = 0;
    while (keep < g.plates.size() && keep < g.shape->size()) {
      const Plate* p = find_plate(g.plates[keep]);
      if (!p || !p->extent || *p->extent != (*g.shape)[keep]) break;
      ++keep;
    }
    g.plates.resize(keep);
  }

  const CheckedModel& model_;
  const CompiledModel* compiled_;
  ModelGraph graph_;
  std::map<std::string, size_t> index_;
  std::set<std::string> functions_;
  std::map<std::pair<std::string, std::string>, size_t> edge_index_;
  // The sizes each node declares, for nodes that declare any (or a constraint).
  std::map<std::string, const std::vector<Expr>*> declared_dims_;
};

}  // namespace

NodeGlyph node_glyph(NodeKind kind) {
  switch (kind) {
    case NodeKind::data: return NodeGlyph::rectangle;
    case NodeKind::latent: return NodeGlyph::ellipse;
    case NodeKind::observed: return NodeGlyph::shaded_ellipse;
    case NodeKind::transformed_data:
    case NodeKind::derived: return NodeGlyph::double_outline;
    case NodeKind::network: return NodeGlyph::network;
    case NodeKind::log_density: return NodeGlyph::factor;
  }
  return NodeGlyph::rectangle;
}

const GraphNode* ModelGraph::find_node(const std::string& id) const {
  for (const auto& n : nodes) {
    if (n.id == id) return &n;
  }
  return nullptr;
}

const GraphFunction* ModelGraph::find_function(const std::string& id) const {
  for (const auto& f : functions) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

const GraphEdge* ModelGraph::find_edge(const std::string& from, const std::string& to) const {
  for (const auto& e : edges) {
    if (e.from == from && e.to == to) return &e;
  }
  return nullptr;
}

const Plate* ModelGraph::find_plate(const std::string& id) const {
  for (const auto& p : plates) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

ModelGraph build_graph(const CheckedModel& model, const CompiledModel* compiled) {
  return GraphBuilder(model, compiled).run();
}

}  // namespace variate::model
