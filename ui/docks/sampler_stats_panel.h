#pragma once
/// Per-chain sampler statistics of the current run: phase and progress, adapted step
/// size, mean tree depth and max-depth hits, divergences, mean acceptance, draws per
/// second and time left — refreshed a few times a second while it samples. Above them,
/// how the run samples: the metric's kind and size and how warmup adapted it, warmup's
/// length as it was decided, and the variables it reparameterized.

#include <QPointer>
#include <QTimer>
#include <QWidget>

#include "ui/document/draw_block.h"

class QTableWidget;

namespace variate::ui {

class ProjectDocument;

/// What the table shows for one chain.
struct ChainStatistics {
  int iterations = 0;
  int warmup = 0;
  double stepSize = 0;      // the adapted one once known, else the latest used
  double meanTreeDepth = 0; // post-warmup (warmup while there is none)
  int maxDepthHits = 0;
  int divergences = 0;      // post-warmup
  int warmupDivergences = 0;
  double meanAccept = 0;
};

class SamplerStatsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit SamplerStatsPanel(QWidget* parent = nullptr);
  void setDocument(ProjectDocument* document);
  QTableWidget* table() const { return table_; }
  /// "Metric: diagonal, 10 parameters, adapted as Stan does · Warmup: ... · Reparameterized: ..."
  QString setupText() const;
  /// Statistics of one chain of the current run (as the table shows them).
  ChainStatistics statistics(int chain) const;

 private:
  struct Totals {  // running sums over the rows seen, so refreshes cost O(chains)
    int rows = 0;
    double warmupDepth = 0, warmupAccept = 0, depth = 0, accept = 0;
    int warmupRows = 0, samplingRows = 0, warmupDivergences = 0, divergences = 0, maxDepthHits = 0;
    double lastStepSize = 0;
  };
  void refresh();
  void add(const DrawBlock& block);
  void recount();

  QPointer<ProjectDocument> document_;
  std::vector<Totals> totals_;
  int maxDepth_ = 0;  // the current run's tree-depth limit, which its hits are counted against
  QTableWidget* table_;
  class QLabel* note_;
  class QLabel* setup_;
  QTimer timer_;
  bool dirty_ = true;
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
