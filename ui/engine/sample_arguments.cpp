#include "ui/engine/sample_arguments.h"

namespace variate::ui {

QStringList sampleOptionArguments(const RunConfig& config, int threads) {
  return {"--chains", QString::number(config.chains),
          "--warmup", QString::number(config.warmup),
          "--draws", QString::number(config.draws),
          "--seed", QString::number(config.seed),
          "--threads", QString::number(threads),
          "--max-depth", QString::number(config.maxTreeDepth),
          "--adapt-delta", QString::number(config.adaptDelta, 'g', 17),
          "--metric", metricName(config.metric),
          "--backend", tape::backend_name(config.backend),
          "--dtype", dtypeName(config.dtype),
          "--device", config.device};
}

}  // namespace variate::ui
