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
  /// The model has networks or guides: it is trained (amortized VI), not sampled; its
  /// networks ("decoder: mlp 20 → 400 → 784, relu") and guided latents ("z[N, 20]").
  bool deep = false;
  QStringList networks;
  QStringList amortized;
  QString report;  // the compiler's text, as `variate check` prints it

  int errorCount() const;
};

/// Whether `text` parses and checks as a model with networks or guides (on the calling
/// thread: parsing and checking are quick, binding data is not).
bool isDeepModel(const QString& text);

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::ModelCheck)
