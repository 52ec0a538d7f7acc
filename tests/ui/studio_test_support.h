#pragma once
// What the studio's GUI suites share: isolated settings, a copy of an example project in
// a temporary folder, a wait for a condition that keeps the event loop running, and
// typing into a panel's fields as a user does.

#include <functional>

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QLineEdit>
#include <QtTest/QtTest>

namespace studio_test {

inline const QString kProjects = QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects/");

/// Settings in the test location, so suites never read or write the user's.
inline void isolateSettings() {
  QStandardPaths::setTestModeEnabled(true);
  QCoreApplication::setOrganizationName("VariateTests");
  QCoreApplication::setApplicationName(QCoreApplication::applicationName());
  QSettings().clear();
}

/// The environment of a variate-studio a test starts: offscreen, its settings in
/// `folder`/config (the default layout, not this user's nor the test's).
inline QProcessEnvironment childEnvironment(const QString& folder) {
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert("QT_QPA_PLATFORM", "offscreen");
  environment.insert("XDG_CONFIG_HOME", folder + "/config");
  return environment;
}

/// Copies projects/NAME/* into `dir` and returns the copy's folder.
inline QString copyProject(const QString& name, const QTemporaryDir& dir) {
  const QDir source(kProjects + name);
  const QString target = dir.path() + "/" + name;
  QDir().mkpath(target);
  for (const QString& file : source.entryList(QDir::Files)) QFile::copy(source.filePath(file), target + "/" + file);
  return target;
}

/// Processes events until `done` or `ms` pass; returns done().
inline bool waitFor(const std::function<bool()>& done, int ms) {
  QElapsedTimer timer;
  timer.start();
  while (!done()) {
    if (timer.elapsed() > ms) return false;
    QTest::qWait(10);
  }
  return true;
}

/// Types `text` into the spin box or line named `field` among `panel`'s children: select
/// all, type, Enter. False when there is no such field.
inline bool typeInto(QWidget* panel, const QString& field, const QString& text) {
  if (auto* box = panel->findChild<QAbstractSpinBox*>(field)) {
    box->selectAll();
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Return);
    return true;
  }
  if (auto* line = panel->findChild<QLineEdit*>(field)) {
    line->selectAll();
    QTest::keyClicks(line, text);
    QTest::keyClick(line, Qt::Key_Return);
    return true;
  }
  return false;
}

/// Picks the item `item` of the combo box named `field`; false when there is none.
inline bool choose(QWidget* panel, const QString& field, const QString& item) {
  auto* box = panel->findChild<QComboBox*>(field);
  const int index = box ? box->findText(item) : -1;
  if (index < 0) return false;
  box->setCurrentIndex(index);
  return true;
}

}  // namespace studio_test
