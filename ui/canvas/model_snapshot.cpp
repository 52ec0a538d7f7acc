#include "ui/canvas/model_snapshot.h"

#include <QHash>
#include <QObject>
#include <QSet>

#include "engine/model/checker.h"
#include "engine/model/graph.h"
#include "engine/model/network_call.h"
#include "engine/model/parser.h"
#include "engine/model/printer.h"

namespace variate::ui {
namespace {

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

CanvasNode::Kind kindOf(model::NodeKind kind) {
  switch (kind) {
    case model::NodeKind::data: return CanvasNode::Kind::Data;
    case model::NodeKind::observed: return CanvasNode::Kind::Observed;
    case model::NodeKind::latent: return CanvasNode::Kind::Latent;
    case model::NodeKind::transformed_data: return CanvasNode::Kind::TransformedData;
    case model::NodeKind::derived: return CanvasNode::Kind::Derived;
    case model::NodeKind::network: return CanvasNode::Kind::Network;
    case model::NodeKind::log_density: return CanvasNode::Kind::LogDensity;
  }  // a function is no NodeKind: fromText makes its node
  return CanvasNode::Kind::Data;
}

QString located(const model::Source& source, const model::Diagnostic& diagnostic) {
  const auto at = source.location(diagnostic.span.begin);
  return QString("line %1, column %2: %3").arg(at.line).arg(at.column).arg(fromStd(diagnostic.message));
}

QString firstError(const model::Source& source, const model::Diagnostics& diagnostics) {
  for (const auto& diagnostic : diagnostics) {
    if (diagnostic.severity == model::Severity::error) return located(source, diagnostic);
  }
  return {};
}

void namesIn(const model::Expr& e, QSet<QString>& out) {
  if (e.kind == model::ExprKind::name) out.insert(fromStd(e.name));
  for (const auto& operand : e.operands) namesIn(operand, out);
  for (const auto& argument : e.arguments) namesIn(argument.value, out);
}

// Marks the edges out of an observed variable into a node from which the variable's own
// distribution is reached on the generative side (its data read by what it is observed
// through); a guide's reads are the variational side.
void markFeedback(const model::CheckedModel& checked, QList<CanvasEdge>& edges) {
  QHash<QString, QStringList> children;
  for (const auto& edge : edges) {
    if (!edge.guide) children[edge.from] << edge.to;
  }
  const auto reaches = [&](const QString& start, const QString& goal) {
    QSet<QString> seen{start};
    QStringList stack{start};
    while (!stack.isEmpty()) {
      const QString next = stack.takeLast();
      if (next == goal) return true;
      for (const auto& child : children.value(next)) {
        if (!seen.contains(child)) {
          seen.insert(child);
          stack << child;
        }
      }
    }
    return false;
  };
  for (auto& edge : edges) {
    const model::Node* source = checked.find(edge.from.toStdString());
    edge.feedback = source && source->kind == model::NodeKind::observed && reaches(edge.to, edge.from);
  }
}

QSet<QString> namesRead(const model::Statement& statement) {
  QSet<QString> names;
  if (const auto* random = statement.as<model::RandomStmt>()) {
    namesIn(random->distribution, names);
    for (const auto& dim : random->dims) namesIn(dim, names);
  } else if (const auto* assignment = statement.as<model::Deterministic>()) {
    namesIn(assignment->value, names);
  } else if (const auto* element = statement.as<model::ElementDefinition>()) {
    namesIn(element->value, names);
  } else if (const auto* increment = statement.as<model::TargetIncrement>()) {
    namesIn(increment->value, names);
  }
  return names;
}

// The widths a network call declares, with the input's where its last declared size is a
// number (`z[N, 20]`, `data x: real[N, 784]`); the data decide it otherwise.
void describeNetwork(const model::Expr& call, const QList<CanvasNode>& earlier, CanvasNode& node) {
  model::Diagnostics ignored;
  const auto network = model::read_network_call(call, ignored);
  if (!network) return;
  if (network->input && network->input->kind == model::ExprKind::name) {
    for (const auto& input : earlier) {
      bool number = false;
      const qint64 width = input.sizes.isEmpty() ? 0 : input.sizes.last().toLongLong(&number);
      if (input.id == fromStd(network->input->name) && number) node.layerWidths << width;
    }
  }
  QStringList widths;
  for (const auto width : network->widths) node.layerWidths << width;
  for (const auto width : node.layerWidths) widths << QString::number(width);
  node.network = QString("%1 %2, %3").arg(fromStd(call.name), widths.join(" → "), model::activation_name(network->activation));
}

}  // namespace

ModelSnapshot::ModelSnapshot() : program_(std::make_shared<model::Program>()) {}

ModelSnapshot ModelSnapshot::fromText(const QString& text) {
  ModelSnapshot snapshot;
  snapshot.text_ = text;
  const model::Source source("model.vmod", text.toStdString());
  model::ParseResult parsed = model::parse(source);
  snapshot.program_ = std::make_shared<model::Program>(parsed.program);
  if (!parsed.ok()) {
    snapshot.error_ = firstError(source, parsed.diagnostics);
    return snapshot;
  }
  model::Diagnostics diagnostics;
  const model::CheckedModel checked = model::check(std::move(parsed.program), source, diagnostics);
  if (diagnostics.has_errors()) {
    snapshot.error_ = firstError(source, diagnostics);
    return snapshot;
  }
  const model::ModelGraph graph = model::build_graph(checked);
  const auto& statements = checked.program.statements;
  // Functions first: the text declares them before the nodes that call them.
  for (const auto& f : graph.functions) {
    CanvasNode node;
    node.id = fromStd(f.id);
    node.kind = CanvasNode::Kind::Function;
    node.declaredType = fromStd(f.signature);
    node.expression = fromStd(f.body);
    for (size_t s = 0; s < statements.size(); ++s) {
      if (statements[s].kind() == model::StatementKind::function && statements[s].name() == f.id) {
        node.programIndex = static_cast<int>(s);
      }
    }
    snapshot.nodes_ << node;
  }
  for (const auto& g : graph.nodes) {
    CanvasNode node;
    node.id = fromStd(g.id);
    node.kind = kindOf(g.kind);
    node.declaredType = fromStd(g.declared_type);
    for (const auto& size : g.sizes) node.sizes << fromStd(size);
    if (const auto rank = checked.rank_of(g.id)) node.rank = static_cast<int>(*rank);
    node.constraint = checked.constraint_of(g.id);
    node.distribution = fromStd(g.distribution);
    for (const auto& argument : g.arguments) {
      node.parameters << fromStd(argument.parameter);
      node.arguments << fromStd(argument.text);
    }
    node.distributionText = fromStd(g.distribution_text);
    node.expression = fromStd(g.expression);
    for (const auto& plate : g.plates) node.plates << fromStd(plate);
    const model::Node* checkedNode = checked.find(g.id);
    if (checkedNode && checkedNode->declaration) {
      node.declaredData = true;
      node.integerData = statements[*checkedNode->declaration].as<model::DataDecl>()->type ==
                         model::BaseType::integer;
    }
    if (checkedNode && checkedNode->kind == model::NodeKind::network && checkedNode->assignment) {
      describeNetwork(statements[*checkedNode->assignment].as<model::Deterministic>()->value, snapshot.nodes_, node);
    }
    if (checkedNode && checkedNode->guide) {
      node.guideText = fromStd(model::to_string(statements[*checkedNode->guide].as<model::RandomStmt>()->distribution));
    }
    node.programIndex = static_cast<int>(statements.size());
    if (checkedNode) {
      for (const auto& s : {checkedNode->declaration, checkedNode->assignment, checkedNode->distribution}) {
        if (s) node.programIndex = std::min(node.programIndex, static_cast<int>(*s));
      }
    }
    snapshot.nodes_ << node;
  }
  for (const auto& e : graph.edges) {
    CanvasEdge edge{fromStd(e.from), fromStd(e.to), {}};
    for (const auto& role : e.roles) edge.roles << fromStd(role);
    // The graph has one edge per pair: it is the guide's when no other statement of the
    // target reads the source.
    if (const model::Node* target = checked.find(e.to); target && target->guide) {
      const QString from = fromStd(e.from);
      bool elsewhere = false;
      for (const auto& s : {target->declaration, target->assignment, target->distribution}) {
        if (s) elsewhere = elsewhere || namesRead(statements[*s]).contains(from);
      }
      edge.guide = !elsewhere && namesRead(statements[*target->guide]).contains(from);
    }
    snapshot.edges_ << edge;
  }
  markFeedback(checked, snapshot.edges_);
  for (const auto& p : graph.plates) {
    snapshot.plates_ << CanvasPlate{fromStd(p.id), fromStd(p.size), fromStd(p.parent)};
  }
  return snapshot;
}

const CanvasNode* ModelSnapshot::node(const QString& id) const {
  for (const auto& node : nodes_) {
    if (node.id == id) return &node;
  }
  return nullptr;
}

const CanvasPlate* ModelSnapshot::plate(const QString& id) const {
  for (const auto& plate : plates_) {
    if (plate.id == id) return &plate;
  }
  return nullptr;
}

QStringList ModelSnapshot::nodeIds() const {
  QStringList ids;
  for (const auto& node : nodes_) ids << node.id;
  return ids;
}

QString firstModelError(const QString& text) { return ModelSnapshot::fromText(text).error(); }

QString rankText(int rank) {
  switch (rank) {
    case 0: return QObject::tr("a scalar");
    case 1: return QObject::tr("a vector");
    case 2: return QObject::tr("a matrix");
  }
  return QObject::tr("an array");
}

QString valueText(const CanvasNode& node) {
  if (!node.rank) return {};
  QString text = rankText(*node.rank);
  if (node.constraint != model::Constraint::none) text += ", " + fromStd(model::constraint_name(node.constraint));
  return text;
}

}  // namespace variate::ui
