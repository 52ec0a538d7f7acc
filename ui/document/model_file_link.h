#pragma once
/// The model file (MODEL.vmod) and data file a project was made from, kept one source of
/// truth with it: saving the project writes the model file too, and a change made outside
/// (an editor, `git pull`) is reported, not silently shadowed by the project's older text.
/// The files are watched; a save that replaces the file (vim, git) is followed.

#include <QDateTime>
#include <QFileSystemWatcher>
#include <QObject>
#include <QString>

namespace variate::ui {

class ModelFileLink : public QObject {
  Q_OBJECT

 public:
  /// Watches `modelPath` and, when not empty, `dataPath`.
  ModelFileLink(const QString& modelPath, const QString& dataPath, QObject* parent = nullptr);

  QString modelPath() const { return modelPath_; }
  QString dataPath() const { return dataPath_; }
  /// The model file's text now; empty with a message when it cannot be read.
  QString readModel(QString* error) const;
  /// Replaces the model file's text (atomically: a crash leaves the old file whole). A
  /// write of the text the file holds changes nothing.
  bool writeModel(const QString& text, QString* error);

 signals:
  /// The model file changed on disk to `text` (not by writeModel).
  void modelChanged(const QString& text);
  /// The data file changed on disk.
  void dataChanged();

 private:
  void onFileChanged(const QString& path);
  void watch();

  QString modelPath_;
  QString dataPath_;
  QString lastModelText_;  // what the file held when last read or written
  QDateTime dataStamp_;    // the data file's modification time when last reported
  QFileSystemWatcher watcher_;
};

}  // namespace variate::ui
