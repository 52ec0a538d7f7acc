#include "ui/canvas/connect_nodes_command.h"

#include <memory>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/program_edits.h"
#include "ui/modeling/distribution_catalog.h"

namespace variate::ui {

ConnectNodesCommand* ConnectNodesCommand::create(CanvasModel* model, const QString& from, const QString& to,
                                                 const QString& parameter, QString* error) {
  const ModelSnapshot& snapshot = model->snapshot();
  const CanvasNode* source = snapshot.node(from);
  const CanvasNode* target = snapshot.node(to);
  if (!source || !target) {
    *error = QObject::tr("the model has no node named '%1'").arg(source ? to : from);
    return nullptr;
  }
  if (from == to) {
    *error = QObject::tr("Refused: '%1' cannot feed its own %2 (a node cannot depend on itself)").arg(from, parameter);
    return nullptr;
  }
  if (source->kind == CanvasNode::Kind::Function) {
    *error = QObject::tr("Refused: '%1' is a function: call it in an expression, such as %1(%2)")
                 .arg(from, target->arguments.value(target->parameters.indexOf(parameter), "x"));
    return nullptr;
  }
  const int index = target->parameters.indexOf(parameter);
  if (index < 0) {
    *error = QObject::tr("'%1' has no parameter slot '%2'").arg(to, parameter);
    return nullptr;
  }
  if (target->arguments[index] == from) {
    *error = QObject::tr("'%1' already feeds %2 of '%3'").arg(from, parameter, to);
    return nullptr;
  }
  const FamilyInfo* family = catalog::find(target->distribution);
  if (family) {
    const int k = family->parameterizationOf(target->parameters);
    const ParameterInfo& info = family->parameterizations.value(std::max(k, 0)).value(index);
    if (info.isDistribution) {
      *error = QObject::tr("Refused: type mismatch: %1 of %2 takes a distribution, such as Normal(mu, sigma), "
                           "not the value of '%3'").arg(parameter, target->distribution, from);
      return nullptr;
    }
    if (source->rank && *source->rank < info.eventRank) {
      *error = QObject::tr("Refused: type mismatch: %1 of %2 takes %3, but '%4' is %5")
                   .arg(parameter, target->distribution, rankText(info.eventRank), from, rankText(*source->rank));
      return nullptr;
    }
  }
  std::unique_ptr<ConnectNodesCommand> command(
      new ConnectNodesCommand(model, QObject::tr("Connect %1 to %2 of %3").arg(from, parameter, to)));
  QString problem;
  if (!command->prepareText([&](model::Program& p) { edits::setArgument(p, to, parameter, from); }, &problem)) {
    *error = QObject::tr("Refused: %1").arg(problem);
    return nullptr;
  }
  command->selectionAfter_ = {to};
  return command.release();
}

}  // namespace variate::ui
