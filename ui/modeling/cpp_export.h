#pragma once
/// File → Export → C++: the studio's way to `variate export MODEL --cpp DIR`. The same
/// engine code writes the same files; the model text is the editor's, unsaved edits
/// included. (In ui/modeling, which sees ATen: the exporter's headers pull it in.)

#include <QString>
#include <QStringList>

namespace variate::ui {

/// The files an export writes into its folder.
QStringList cppExportFiles();

/// Exports `modelText` as a standalone C++ program named after `modelName` into
/// `directory` (created if missing). `sourceName` names the model in messages and in the
/// generated comments. Returns false with `error` set, writing nothing, when the model
/// has errors ("eight_schools.vmod:3:7: error: ..."); false too when a file cannot be
/// written. `programName` receives the C++ name used.
bool exportModelAsCpp(const QString& modelText, const QString& modelName, const QString& sourceName,
                      const QString& directory, QString* programName, QString* error);

}  // namespace variate::ui
