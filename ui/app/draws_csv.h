#pragma once
/// A run's draws as one CSV table: chain, iteration, warmup flag, the sampler columns
/// (mcmc/sampler_columns.h) and every output value, one row per iteration of every chain.

#include <QString>

namespace variate::ui {

class RunData;

/// False with a message when the file cannot be written.
bool writeDrawsCsv(const RunData& run, const QString& path, QString* error);

}  // namespace variate::ui
