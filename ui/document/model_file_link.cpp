#include "ui/document/model_file_link.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace variate::ui {

ModelFileLink::ModelFileLink(const QString& modelPath, const QString& dataPath, QObject* parent)
    : QObject(parent), modelPath_(modelPath), dataPath_(dataPath) {
  QString error;
  lastModelText_ = readModel(&error);
  if (!dataPath_.isEmpty()) dataStamp_ = QFileInfo(dataPath_).lastModified();
  connect(&watcher_, &QFileSystemWatcher::fileChanged, this, &ModelFileLink::onFileChanged);
  // An editor that saves by replacing the file (a new inode) ends the watch on the old
  // one: the folder's change says the name is back.
  connect(&watcher_, &QFileSystemWatcher::directoryChanged, this, [this] {
    watch();
    onFileChanged(modelPath_);
    if (!dataPath_.isEmpty()) onFileChanged(dataPath_);
  });
  watch();
}

void ModelFileLink::watch() {
  QStringList paths{modelPath_, QFileInfo(modelPath_).absolutePath()};
  if (!dataPath_.isEmpty()) paths << dataPath_ << QFileInfo(dataPath_).absolutePath();
  const QStringList watched = watcher_.files() + watcher_.directories();
  for (const QString& path : paths) {
    if (!watched.contains(path) && QFileInfo::exists(path)) watcher_.addPath(path);
  }
}

QString ModelFileLink::readModel(QString* error) const {
  QFile file(modelPath_);
  if (!file.open(QIODevice::ReadOnly)) {
    *error = tr("Cannot read %1: %2").arg(modelPath_, file.errorString());
    return {};
  }
  return QString::fromUtf8(file.readAll());
}

bool ModelFileLink::writeModel(const QString& text, QString* error) {
  QString unreadable;
  if (readModel(&unreadable) == text && unreadable.isEmpty()) {
    lastModelText_ = text;
    return true;
  }
  QSaveFile file(modelPath_);
  if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
    *error = tr("Cannot write %1: %2").arg(modelPath_, file.errorString());
    return false;
  }
  lastModelText_ = text;
  watch();  // QSaveFile replaced the file
  return true;
}

void ModelFileLink::onFileChanged(const QString& path) {
  watch();
  if (path == dataPath_) {
    const QFileInfo data(dataPath_);
    if (data.exists() && data.lastModified() != dataStamp_) {
      dataStamp_ = data.lastModified();
      emit dataChanged();
    }
    return;
  }
  if (path != modelPath_) return;
  QString error;
  const QString text = readModel(&error);
  if (!error.isEmpty() || text == lastModelText_) return;  // gone for a moment, or our own write
  lastModelText_ = text;
  emit modelChanged(text);
}

}  // namespace variate::ui
