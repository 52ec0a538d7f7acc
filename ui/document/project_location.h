#pragma once
/// Where the project file made from a model file goes, and the example projects: beside
/// the model (NAME.variate), unless its folder cannot be written or holds the installed
/// examples, which stay as installed. Then the project goes to the user's documents,
/// Variate/NAME.variate, where opening the same model again finds the runs made before.

#include <QString>
#include <QStringList>

namespace variate::ui {

/// The rule, given the installed examples' folder (empty: none) and the documents folder.
QString projectPathForModel(const QString& modelPath, const QString& installedExamples, const QString& documents);
/// The rule for this program: installedExamplesDir() and the user's documents folder.
QString projectPathForModel(const QString& modelPath);

/// The examples installed with this program, share/variate/projects beside its bin/;
/// empty when there are none (a build tree).
QString installedExamplesDir();
/// The examples to offer: the installed ones, else the projects/ of the source tree a
/// build tree inside it was made from; empty when neither is found.
QString exampleProjectsDir();
/// The model file of each example (one folder each, its .vmod), sorted by folder name.
QStringList exampleModels(const QString& examplesDir);

}  // namespace variate::ui
