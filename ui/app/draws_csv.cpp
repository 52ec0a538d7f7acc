#include "ui/app/draws_csv.h"

#include <QSaveFile>
#include <QTextStream>

#include <sstream>

#include "engine/mcmc/sampler_columns.h"
#include "engine/services/sbc_ranks_csv.h"
#include "engine/store/project.h"

#include "ui/document/run_data.h"

namespace variate::ui {

bool writeDrawsCsv(const RunData& run, const QString& path, QString* error) {
  QSaveFile file(path);  // all or nothing: a failed export leaves no half file
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
    *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  QTextStream out(&file);
  out.setRealNumberPrecision(17);  // round-trips doubles
  out << "chain,iteration,warmup";
  for (const std::string& name : sampler_column_names()) out << ',' << QString::fromStdString(name);
  for (const QString& name : run.columnNames) out << ",\"" << name << '"';
  out << '\n';
  for (size_t c = 0; c < run.chains.size(); ++c) {
    const ChainDraws& chain = run.chains[c];
    for (const auto& block : chain.blocks()) {
      for (int r = 0; r < block->rows(); ++r) {
        const int iteration = block->firstIteration + r;
        const SamplerRow& s = block->stats[r];
        out << c + 1 << ',' << iteration + 1 << ',' << (iteration < block->warmupIterations ? 1 : 0) << ','
            << s.logDensity << ',' << s.acceptStat << ',' << s.stepSize << ',' << s.treeDepth << ','
            << s.leapfrogSteps << ',' << (s.divergent ? 1 : 0) << ',' << s.energy;
        for (int k = 0; k < block->columns; ++k) out << ',' << block->value(r, k);
        out << '\n';
      }
    }
  }
  out.flush();
  if (!file.commit()) {
    *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

bool writeSbcRanksCsv(const QString& projectPath, qint64 runId, const QString& path, QString* error) {
  std::ostringstream text;
  try {
    const store::Project project(projectPath.toStdString());
    services::write_sbc_ranks_csv(text, project.run(runId).columns, project.sbc_replications(runId));
  } catch (const std::exception& e) {
    *error = QString::fromUtf8(e.what());
    return false;
  }
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(QByteArray::fromStdString(text.str())) < 0 || !file.commit()) {
    *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace variate::ui
