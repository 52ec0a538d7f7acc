#pragma once
/// A run's draws as one CSV table: chain, iteration, warmup flag, the sampler columns
/// (mcmc/sampler_columns.h) and every output value, one row per iteration of every chain;
/// an SBC run's ranks as `variate sbc` writes them.

#include <QString>

namespace variate::ui {

class RunData;

/// False with a message when the file cannot be written.
bool writeDrawsCsv(const RunData& run, const QString& path, QString* error);

/// An SBC run's stored ranks as `variate sbc --output` writes ranks.csv (read from the
/// project: every replication stored, whether the studio has read it or not); false with
/// a message when the project cannot be read or the file written.
bool writeSbcRanksCsv(const QString& projectPath, qint64 runId, const QString& path, QString* error);

}  // namespace variate::ui
