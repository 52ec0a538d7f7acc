#include "ui/runs/variate_program.h"

#include <QCoreApplication>
#include <QFileInfo>

#include "engine/core/argument_error.h"

namespace variate::ui {

QString variateProgram() {
  QStringList candidates{QCoreApplication::applicationDirPath() + "/variate"};
  // Test suites run from tests/, away from the programs: ctest names it for them.
  if (const QString named = qEnvironmentVariable("VARIATE_PROGRAM"); !named.isEmpty()) candidates << named;
  for (const QString& path : candidates) {
    const QFileInfo file(path);
    if (file.isFile() && file.isExecutable()) return file.absoluteFilePath();
  }
  throw ArgumentError("a run on several processes starts the `variate` command line, found in none of: " +
                      candidates.join(", ").toStdString());
}

}  // namespace variate::ui
