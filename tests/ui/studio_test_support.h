#pragma once
// What the studio's GUI suites share: isolated settings, a copy of an example project in
// a temporary folder, and a wait for a condition that keeps the event loop running.

#include <functional>

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

}  // namespace studio_test
