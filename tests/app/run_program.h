#pragma once
// What the suites that run the executables share: a program run with its standard output
// and error merged, and the example project they run on.

#include <QtTest/QtTest>

namespace app_test {

inline const QString kEightSchools = QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects/eight_schools/");

struct Outcome {
  int exit_code = -1;  // -1 when the program crashed or ran past its time
  QString output;
};

/// Runs `program` to completion (or for at most `timeout_ms`; -1: no limit), in
/// `environment` and `directory` (empty: this process's).
inline Outcome run_program(const QString& program, const QStringList& arguments, int timeout_ms = -1,
                           const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
                           const QString& directory = QString()) {
  QProcess process;
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.setProcessEnvironment(environment);
  if (!directory.isEmpty()) process.setWorkingDirectory(directory);
  process.start(program, arguments);
  if (!process.waitForFinished(timeout_ms)) {
    process.kill();
    process.waitForFinished();
    return {-1, "timed out: " + program};
  }
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromUtf8(process.readAll())};
}

/// A chain file without the lines that record when and how long it ran, and where (its
/// output path): what two runs that should draw the same must agree on.
inline QStringList draws_of(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {"cannot open " + path};
  QStringList lines;
  for (const auto& line : QString::fromUtf8(file.readAll()).split('\n')) {
    if (line.contains("start_datetime") || line.contains("Elapsed Time") || line.contains("seconds (")) continue;
    if (line.contains("file = ")) continue;
    lines << line;
  }
  return lines;
}

/// The draws in a chain file (its rows other than comments and the header).
inline int draw_lines(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return 0;
  int count = 0;
  for (const auto& line : QString::fromUtf8(file.readAll()).split('\n')) {
    if (!line.isEmpty() && !line.startsWith('#') && !line.startsWith("lp__")) ++count;
  }
  return count;
}

/// A JSON file's top-level object (empty when it cannot be read).
inline QJsonObject read_json(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(file.readAll()).object();
}

/// A text file's non-empty lines.
inline QStringList lines_of(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {"cannot open " + path};
  return QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
}

/// The PIDs whose parent is `parent` (the ranks a test's `--nproc` run started).
inline QList<qint64> children_of(qint64 parent) {
  QList<qint64> children;
  for (const auto& entry : QDir("/proc").entryList(QDir::Dirs)) {
    bool numeric = false;
    const qint64 pid = entry.toLongLong(&numeric);
    if (!numeric) continue;
    QFile stat("/proc/" + entry + "/stat");
    if (!stat.open(QIODevice::ReadOnly)) continue;
    const QString text = QString::fromUtf8(stat.readAll());
    const QStringList fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() > 1 && fields[1].toLongLong() == parent) children << pid;
  }
  return children;
}

/// Runs the `variate` command line this build made.
inline Outcome run(const QStringList& arguments, int timeout_ms = -1) {
  return run_program(VARIATE_EXECUTABLE, arguments, timeout_ms);
}

}  // namespace app_test
