#include "ui/canvas/run_diagnostics.h"

#include <algorithm>

#include "ui/document/run_data.h"

namespace variate::ui {
namespace {

// Enough draws to place a median among the posterior's percentiles, however long the run.
constexpr int kMaxDrawsPerChain = 4000;

}  // namespace

QHash<QString, ParameterDiagnostics> runDiagnostics(const RunData& run) {
  QHash<QString, ParameterDiagnostics> result;
  for (const auto& row : run.summary.rows) {
    ParameterDiagnostics d;
    d.rhat = row.r_hat;
    d.ess = row.ess_bulk;
    d.essTail = row.ess_tail;
    d.chains = run.summary.chains;
    d.mean = row.mean;
    d.sd = row.sd;
    result.insert(QString::fromStdString(row.name), d);
  }
  // Which sampling iterations of each chain diverged.
  std::vector<std::vector<bool>> divergent(run.chains.size());
  bool any = false;
  for (size_t c = 0; c < run.chains.size(); ++c) {
    const ChainDraws& chain = run.chains[c];
    const int begin = chain.warmupIterations();
    divergent[c].assign(static_cast<size_t>(std::max(0, chain.iterations() - begin)), false);
    chain.forEachStats(begin, chain.iterations(), [&](int i, const SamplerRow& row) {
      divergent[c][i - begin] = row.divergent;
      any = any || row.divergent;
    });
  }
  if (!any) return result;
  for (int column = 0; column < run.parameterColumns && column < run.columnNames.size(); ++column) {
    std::vector<double> all, diverged;
    for (size_t c = 0; c < run.chains.size(); ++c) {
      const ChainDraws& chain = run.chains[c];
      const int begin = chain.warmupIterations();
      const int stride = std::max(1, (chain.iterations() - begin) / kMaxDrawsPerChain);
      chain.forEach(column, begin, chain.iterations(), [&](int i, double v) {
        if ((i - begin) % stride == 0) all.push_back(v);
        if (divergent[c][i - begin]) diverged.push_back(v);
      });
    }
    if (all.empty() || diverged.empty()) continue;
    std::nth_element(diverged.begin(), diverged.begin() + diverged.size() / 2, diverged.end());
    const double median = diverged[diverged.size() / 2];
    const double below = std::count_if(all.begin(), all.end(), [&](double v) { return v < median; });
    const double quantile = below / all.size();
    auto it = result.find(run.columnNames[column]);
    if (it != result.end() && (quantile < 0.2 || quantile > 0.8)) it->divergent = true;
  }
  return result;
}

}  // namespace variate::ui
