#include "ui/canvas/edit_node_command.h"

#include <memory>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/program_edits.h"

namespace variate::ui {
namespace {

QString labelOf(const QString& node, NodeProperty property, const QString& key) {
  switch (property) {
    case NodeProperty::Argument: return QObject::tr("Set %1 of %2").arg(key, node);
    case NodeProperty::Distribution: return QObject::tr("Set the distribution of %1").arg(node);
    case NodeProperty::Parameterization: return QObject::tr("Set the parameterization of %1").arg(node);
    case NodeProperty::Expression: return QObject::tr("Set the expression of %1").arg(node);
    case NodeProperty::Sizes: return QObject::tr("Set the sizes of %1").arg(node);
    case NodeProperty::DataType: return QObject::tr("Set the type of %1").arg(node);
  }
  return {};
}

}  // namespace

EditNodeCommand* EditNodeCommand::create(CanvasModel* model, const QString& node, NodeProperty property,
                                         const QString& key, const QString& value, QString* error) {
  std::unique_ptr<EditNodeCommand> command(new EditNodeCommand(model, labelOf(node, property, key)));
  const bool ok = command->prepareText(
      [&](model::Program& p) {
        switch (property) {
          case NodeProperty::Argument: edits::setArgument(p, node, key, value); break;
          case NodeProperty::Distribution: edits::setDistribution(p, node, value); break;
          case NodeProperty::Parameterization: {
            bool number = false;
            const int index = value.toInt(&number);
            if (!number) throw EditError(QObject::tr("expected a parameterization number"));
            edits::setParameterization(p, node, index);
            break;
          }
          case NodeProperty::Expression: edits::setExpression(p, node, value); break;
          case NodeProperty::Sizes: edits::setSizes(p, node, value); break;
          case NodeProperty::DataType:
            if (value != "real" && value != "int") throw EditError(QObject::tr("data is real or int"));
            edits::setDataType(p, node, value == "int");
            break;
        }
      },
      error);
  if (!ok) return nullptr;
  command->selectionAfter_ = {node};
  return command.release();
}

}  // namespace variate::ui
