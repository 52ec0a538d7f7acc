#pragma once
/// Consecutive iterations of one chain as they cross from the engine thread to the UI:
/// an immutable batch, shared (never copied) by every view and worker that reads it.

#include <memory>
#include <vector>

#include <QMetaType>

namespace variate::ui {

/// A transition's sampler statistics (Stan's sampler columns).
struct SamplerRow {
  double logDensity = 0;  // lp__
  double acceptStat = 0;
  double stepSize = 0;
  int treeDepth = 0;
  int leapfrogSteps = 0;
  bool divergent = false;
  double energy = 0;
};

struct DrawBlock {
  int chain = 0;            // 0-based
  int firstIteration = 0;   // 0-based, counting warmup
  int warmupIterations = 0; // of the chain: iterations below it are warmup
  int columns = 0;          // output values per draw (parameters, then derived quantities)
  std::vector<double> values;  // rows × columns, row-major
  std::vector<SamplerRow> stats;  // one per row

  int rows() const { return static_cast<int>(stats.size()); }
  double value(int row, int column) const { return values[static_cast<size_t>(row) * columns + column]; }
};

using DrawBlockPtr = std::shared_ptr<const DrawBlock>;
using DrawBlocks = std::vector<DrawBlockPtr>;

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::DrawBlockPtr)
Q_DECLARE_METATYPE(variate::ui::DrawBlocks)
