#include "ui/document/project_location.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace variate::ui {
namespace {

bool isInside(const QString& folder, const QString& root) {
  if (root.isEmpty()) return false;
  const QString canonicalFolder = QFileInfo(folder).canonicalFilePath();
  const QString canonicalRoot = QFileInfo(root).canonicalFilePath();
  return !canonicalRoot.isEmpty() &&
         (canonicalFolder == canonicalRoot || canonicalFolder.startsWith(canonicalRoot + "/"));
}

}  // namespace

QString projectPathForModel(const QString& modelPath, const QString& installedExamples, const QString& documents) {
  const QFileInfo model(modelPath);
  const QString name = model.completeBaseName() + ".variate";
  const QString folder = model.absolutePath();
  if (QFileInfo(folder).isWritable() && !isInside(folder, installedExamples)) return folder + "/" + name;
  return QDir(documents).filePath("Variate/" + name);
}

QString projectPathForModel(const QString& modelPath) {
  return projectPathForModel(modelPath, installedExamplesDir(),
                             QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
}

QString installedExamplesDir() {
  const QDir installed(QCoreApplication::applicationDirPath() + "/../share/variate/projects");
  return installed.exists() ? installed.canonicalPath() : QString();
}

QString exampleProjectsDir() {
  if (const QString installed = installedExamplesDir(); !installed.isEmpty()) return installed;
  // build/app/variate-studio, build/tests/tst_... : the build folder is in the source tree.
  const QDir sourceTree(QCoreApplication::applicationDirPath() + "/../../projects");
  return sourceTree.exists() ? sourceTree.canonicalPath() : QString();
}

QStringList exampleModels(const QString& examplesDir) {
  QStringList models;
  if (examplesDir.isEmpty()) return models;
  const QDir dir(examplesDir);
  for (const QString& folder : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
    const QStringList files = QDir(dir.filePath(folder)).entryList({"*.vmod"}, QDir::Files, QDir::Name);
    if (!files.isEmpty()) models << dir.filePath(folder + "/" + files.first());
  }
  return models;
}

}  // namespace variate::ui
