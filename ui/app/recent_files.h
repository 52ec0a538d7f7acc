#pragma once
/// The recently opened projects (setting "recentProjects", newest first, at most 8), and
/// the File ▸ Open Recent menu that lists them.

#include <QObject>
#include <QStringList>

class QMenu;

namespace variate::ui {

class RecentFiles : public QObject {
  Q_OBJECT

 public:
  RecentFiles(QMenu* menu, QObject* parent = nullptr);
  static constexpr int kMax = 8;

  QStringList files() const;
  void add(const QString& path);

 signals:
  void openRequested(const QString& path);

 private:
  void rebuild();
  QMenu* menu_;
};

}  // namespace variate::ui
