#include "ui/engine/variate_program.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <variate/core/argument_error.h>

namespace variate::ui {

QString variateProgram() {
  QStringList candidates{QCoreApplication::applicationDirPath() + "/variate"};
#ifdef VARIATE_BUILD_PROGRAM
  candidates << QStringLiteral(VARIATE_BUILD_PROGRAM);
#endif
  for (const QString& path : candidates) {
    const QFileInfo file(path);
    if (file.isFile() && file.isExecutable()) return file.absoluteFilePath();
  }
  throw ArgumentError("a run on several processes starts the `variate` command line, found in none of: " +
                      candidates.join(", ").toStdString());
}

}  // namespace variate::ui
