#include "ui/app/recent_files.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace variate::ui {

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) { rebuild(); }

QStringList RecentFiles::files() const { return QSettings().value("recentProjects").toStringList(); }

void RecentFiles::add(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList list = files();
  list.removeAll(absolute);
  list.prepend(absolute);
  QSettings().setValue("recentProjects", list.mid(0, kMax));
  rebuild();
}

void RecentFiles::rebuild() {
  menu_->clear();
  const QStringList list = files();
  for (int i = 0; i < list.size(); ++i) {
    QAction* action = menu_->addAction(QString("&%1 %2").arg(i + 1).arg(QFileInfo(list[i]).fileName()));
    action->setToolTip(list[i]);
    action->setEnabled(QFileInfo::exists(list[i]));
    connect(action, &QAction::triggered, this, [this, path = list[i]] { emit openRequested(path); });
  }
  menu_->setEnabled(!list.isEmpty());
  if (!list.isEmpty()) {
    menu_->addSeparator();
    menu_->addAction(tr("Clear List"), this, [this] {
      QSettings().remove("recentProjects");
      rebuild();
    });
  }
}

}  // namespace variate::ui
