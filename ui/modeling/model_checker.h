#pragma once
/// Checks model text with the engine's compiler as the user types: requests are debounced,
/// run on a thread of their own (so checking never waits for a running sampler and never
/// blocks the UI), and only the answer to the newest request is delivered.

#include <atomic>

#include <QObject>
#include <QThread>
#include <QTimer>

#include "ui/document/model_check.h"

namespace variate::ui {

class ModelCheckWorker;

class ModelChecker : public QObject {
  Q_OBJECT

 public:
  explicit ModelChecker(QObject* parent = nullptr);
  ~ModelChecker() override;

  /// Checks once 300 ms pass without a newer request.
  void request(const QString& fileName, const QString& text, const QString& dataJson);
  /// Checks now (still on the checker's thread).
  void requestNow(const QString& fileName, const QString& text, const QString& dataJson);

 signals:
  void checked(const variate::ui::ModelCheck& check);

 private:
  void dispatch();
  void deliver(const ModelCheck& check);

  QThread thread_;
  ModelCheckWorker* worker_ = nullptr;
  QTimer debounce_;
  QString fileName_, text_, dataJson_;
  quint64 generation_ = 0;
};

/// The worker on the checker's thread.
class ModelCheckWorker : public QObject {
  Q_OBJECT

 public:
  void check(quint64 generation, const QString& fileName, const QString& text, const QString& dataJson);

 signals:
  void checked(const variate::ui::ModelCheck& check);

 private:
  // Parsed data is kept while its text stays the same (data rarely changes while typing).
  QString dataText_;
  std::shared_ptr<void> data_;
  QString dataError_;
};

}  // namespace variate::ui
