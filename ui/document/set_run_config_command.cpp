#include "ui/document/set_run_config_command.h"

#include "ui/document/project_document.h"

namespace variate::ui {
namespace {

// What differs: "method", the names of the settings whose values differ, "worker job".
QStringList changedKeys(const RunConfig& a, const RunConfig& b) {
  QStringList keys;
  if (a.method != b.method) keys << "method";
  for (const services::SettingDescriptor* setting : services::all_settings()) {
    if (a.settings.value_of(*setting) != b.settings.value_of(*setting)) {
      const QString name = QString::fromStdString(setting->name);
      if (!keys.contains(name)) keys << name;
    }
  }
  if (a.job.has_value() != b.job.has_value() || (a.job && a.job->id != b.job->id)) keys << "worker job";
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
