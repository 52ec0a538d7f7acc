// The one-line bodies of the small undo commands.

#include "ui/document/rename_run_command.h"
#include "ui/document/select_data_set_command.h"
#include "ui/document/project_document.h"

namespace variate::ui {

void SelectDataSetCommand::undo() { document_->applyDataSetIndex(before_); }
void SelectDataSetCommand::redo() { document_->applyDataSetIndex(after_); }

void RenameRunCommand::undo() { document_->applyRunName(run_, before_); }
void RenameRunCommand::redo() { document_->applyRunName(run_, after_); }

}  // namespace variate::ui
