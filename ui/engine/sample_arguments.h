#pragma once
/// A run configuration's NUTS settings as `variate sample` options, for the runs the
/// studio has another program make: the other ranks of a run on several processes, and
/// a worker's job (whose options must name no files).

#include <QStringList>

#include "ui/document/run_config.h"

namespace variate::ui {

/// --chains --warmup --draws --seed --threads --max-depth --adapt-delta --metric
/// --backend --dtype --device, with `threads` as --threads.
QStringList sampleOptionArguments(const RunConfig& config, int threads);

}  // namespace variate::ui
