#include "ui/document/set_run_config_command.h"

#include "ui/document/project_document.h"

namespace variate::ui {
namespace {

// The keys whose values differ.
QStringList changedKeys(const RunConfig& a, const RunConfig& b) {
  const QJsonObject x = a.toJson(), y = b.toJson();
  QStringList keys;
  for (auto it = x.begin(); it != x.end(); ++it) {
    if (y.value(it.key()) != it.value()) keys << it.key();
  }
  return keys;
}

}  // namespace

SetRunConfigCommand::SetRunConfigCommand(ProjectDocument* document, RunConfig before, RunConfig after)
    : document_(document), before_(std::move(before)), after_(std::move(after)) {
  setText(QObject::tr("Change %1").arg(changedKeys(before_, after_).join(", ")));
}

void SetRunConfigCommand::undo() { document_->applyRunConfig(before_); }
void SetRunConfigCommand::redo() { document_->applyRunConfig(after_); }

bool SetRunConfigCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = static_cast<const SetRunConfigCommand*>(other);
  if (next->document_ != document_ || changedKeys(before_, after_) != changedKeys(after_, next->after_)) {
    return false;
  }
  after_ = next->after_;
  if (after_ == before_) setObsolete(true);
  return true;
}

}  // namespace variate::ui
