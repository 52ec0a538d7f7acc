#include "ui/canvas/add_node_command.h"

#include <memory>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/program_edits.h"
#include "ui/modeling/distribution_catalog.h"

namespace variate::ui {

AddNodeCommand* AddNodeCommand::create(CanvasModel* model, const NodeTemplate& what, const QPointF& position,
                                       QString* error) {
  std::unique_ptr<AddNodeCommand> command(new AddNodeCommand(model, {}));
  const FamilyInfo* family = what.kind == NodeTemplate::Kind::Random ? catalog::find(what.family) : nullptr;
  if (what.kind == NodeTemplate::Kind::Random && !family) {
    *error = QObject::tr("unknown distribution '%1'").arg(what.family);
    return nullptr;
  }
  QString stem;
  switch (what.kind) {
    case NodeTemplate::Kind::RealData: stem = "x"; break;
    case NodeTemplate::Kind::IntData: stem = "n"; break;
    case NodeTemplate::Kind::Expression: stem = "value"; break;
    case NodeTemplate::Kind::Function:
      stem = "f";
      break;
    case NodeTemplate::Kind::Random: stem = family->name.toLower(); break;
  }
  const QString name = edits::freshName(model->snapshot().program(), stem);
  const bool ok = command->prepareText(
      [&](model::Program& program) {
        switch (what.kind) {
          case NodeTemplate::Kind::RealData: edits::addDataNode(program, name, false); break;
          case NodeTemplate::Kind::IntData: edits::addDataNode(program, name, true); break;
          case NodeTemplate::Kind::Expression: edits::addDeterministicNode(program, name, "0"); break;
          case NodeTemplate::Kind::Function:
            edits::addFunction(program, name);
            break;
          case NodeTemplate::Kind::Random:
            if (family->discrete) {
              edits::addDataNode(program, name, true);
              edits::setDistribution(program, name, family->name);
            } else {
              edits::addRandomNode(program, name, family->defaultCall());
            }
            break;
        }
      },
      error);
  if (!ok) return nullptr;
  command->name_ = name;
  command->after_.insert(name, position);
  command->selectionAfter_ = {name};
  command->setText(QObject::tr("Add %1").arg(name));
  return command.release();
}

}  // namespace variate::ui
