#pragma once
/// What the engine's checker says about the model text: located marks for the editor and
/// the model's parameters, as plain values.

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace variate::ui {

struct ModelMark {
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  int line = 1;      // 1-based
  int column = 1;    // 1-based, in bytes as the engine counts (equal to characters in ASCII)
  int endLine = 1;
  int endColumn = 1; // exclusive
  QString message;
};

struct ModelCheck {
  quint64 generation = 0;  // which request this answers
  QList<ModelMark> marks;
  /// "mu", "theta_trans[8]": latent parameters with their shapes once the model compiled
  /// with its data (or without data when it declares none).
  QStringList parameters;
  QStringList derived;
  bool compiled = false;
  QString report;  // the compiler's text, as `variate check` prints it

  int errorCount() const;
};

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::ModelCheck)
