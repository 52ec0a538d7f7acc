#include "ui/document/run_records.h"

#include <cmath>

#include <QSet>

#include "engine/mcmc/sampler_columns.h"
#include "engine/target/parameter_names.h"
#include "engine/store/project.h"

namespace variate::ui {
namespace {

QDateTime fromUnix(double seconds) {
  return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(seconds * 1000));
}

RunStatus statusOf(store::RunStatus status) {
  switch (status) {
    case store::RunStatus::running: return RunStatus::Running;
    case store::RunStatus::finished: return RunStatus::Finished;
    case store::RunStatus::stopped: return RunStatus::Stopped;
    case store::RunStatus::interrupted: return RunStatus::Interrupted;
    case store::RunStatus::failed: return RunStatus::Failed;
  }
  return RunStatus::Interrupted;
}

}  // namespace

QString bracketedName(const std::string& stanName) {
  return QString::fromStdString(to_style(stanName, NameStyle::Bracketed));
}

int methodColumnCount(const store::RunInfo& info) {
  int count = 0;
  while (count < static_cast<int>(info.columns.size())) {
    const std::string& name = info.columns[count];
    if (name.size() < 3 || name.compare(name.size() - 2, 2, "__") != 0) break;
    ++count;
  }
  return count;
}

RunData runFromRecord(const store::RunInfo& info) {
  RunData run;
  run.id = info.id;
  run.name = QString::fromStdString(info.name);
  run.config = RunConfig::ofRun(info.method, info.config_json);
  run.seed = info.seed;
  run.status = statusOf(info.status);
  run.message = QString::fromStdString(info.error_message);
  run.started = fromUnix(info.started_at.value_or(info.created_at));
  if (info.finished_at) run.ended = fromUnix(*info.finished_at);
  run.modelVersion = info.model_version_id;
  run.dataSetId = info.data_set_id.value_or(-1);
  run.storedDraws = info.sampling_draws;
  const int skip = methodColumnCount(info);
  for (size_t i = skip; i < info.columns.size(); ++i) run.columnNames << bracketedName(info.columns[i]);
  // Parameters come before derived quantities, but the record does not say where one
  // ends; the studio treats every column as plottable, so all count as parameters.
  run.parameterColumns = run.columnNames.size();
  return run;
}

void syncRunsWithFile(const store::Project& project, RunList& runs) {
  const auto followedHere = [](const RunPtr& run) { return run->drawsLoaded && run->isActive(); };
  QSet<qint64> inFile;
  for (const store::RunInfo& info : project.runs()) {
    inFile.insert(info.id);
    const RunPtr held = runs.run(info.id);
    RunData record = runFromRecord(info);
    if (!held) {
      runs.add(std::move(record), false);
    } else if (!followedHere(held) &&
               (held->name != record.name || held->status != record.status || held->message != record.message ||
                held->ended != record.ended || held->storedDraws != record.storedDraws)) {
      runs.setRecorded(record);
    }
  }
  for (const qint64 id : runs.ids()) {
    const RunPtr held = runs.run(id);
    if (!inFile.contains(id) && held && !followedHere(held)) runs.remove(id);
  }
}

LoadedDraws readDraws(const store::Project& project, const store::RunInfo& info) {
  LoadedDraws loaded;
  const int skip = methodColumnCount(info);
  const bool nuts = info.method == store::RunMethod::nuts;
  // Variational columns (lp__ written as 0, log_p__, log_g__): the density is log_p__, as
  // the live run shows it.
  const bool variational = !nuts && skip >= 3 && info.columns[1] == "log_p__";
  const std::vector<store::ChainRecord> records = project.chains(info.id);
  for (const store::ChainDraws& table : project.draws(info.id)) {
    auto block = std::make_shared<DrawBlock>();
    block->chain = table.chain;
    block->firstIteration = 0;
    block->warmupIterations = table.warmup_iterations;
    const int width = static_cast<int>(table.columns.size());
    block->columns = width - skip;
    block->values.reserve(table.rows * block->columns);
    block->stats.resize(table.rows);
    for (size_t row = 0; row < table.rows; ++row) {
      const double* values = &table.values[row * width];
      block->values.insert(block->values.end(), values + skip, values + width);
      SamplerRow& stats = block->stats[row];
      stats.logDensity = values[variational ? 1 : 0];
      if (nuts && skip >= static_cast<int>(kSamplerColumnCount)) {
        const auto value = [values](SamplerColumn column) { return values[column_index(column)]; };
        stats.acceptStat = value(SamplerColumn::accept_stat);
        stats.stepSize = value(SamplerColumn::stepsize);
        stats.treeDepth = static_cast<int>(value(SamplerColumn::treedepth));
        stats.leapfrogSteps = static_cast<int>(value(SamplerColumn::n_leapfrog));
        stats.divergent = value(SamplerColumn::divergent) > 0.5;
        stats.energy = value(SamplerColumn::energy);
      }
    }
    if (static_cast<int>(loaded.chains.size()) <= table.chain) loaded.chains.resize(table.chain + 1);
    loaded.chains[table.chain].append(block);
  }
  loaded.states.resize(loaded.chains.size());
  for (const store::ChainRecord& record : records) {
    if (record.chain >= static_cast<int>(loaded.states.size())) continue;
    ChainState& state = loaded.states[record.chain];
    state.stepSize = record.step_size;
    state.inverseMetric = record.inverse_metric;
    state.lastPosition = record.last_position;
    state.finished = record.ended;
    state.stoppedEarly = record.stopped_early;
  }
  return loaded;
}

ApproximationCheck readApproximation(const store::Project& project, const store::RunInfo& info) {
  if (!services::draws_are_independent(info.method)) return {};
  ApproximationCheck check;
  if (const auto json = project.diagnostics_json(info.id)) {
    check = approximationCheck(*json);
  }
  if (check.paretoK) return check;
  // A run recorded before the studio stored k-hat (or by another program): its draws carry
  // log p and log q, so k-hat is what it would have stored. Laplace draws without the
  // Jacobian approximate no posterior: their k-hat would say nothing.
  if (!RunConfig::ofRun(info.method, info.config_json).kHatApplies()) return check;
  const auto column = [&](const char* name) {
    for (size_t i = 0; i < info.columns.size(); ++i) {
      if (info.columns[i] == name) return static_cast<int>(i);
    }
    return -1;
  };
  const int logP = column("log_p__"), logG = column("log_g__");
  if (logP < 0 || logG < 0) return check;
  std::vector<double> ratios;
  for (const store::ChainDraws& table : project.draws(info.id)) {
    for (size_t row = 0; row < table.rows; ++row) ratios.push_back(table.at(row, logP) - table.at(row, logG));
  }
  if (ratios.size() < 2) return check;
  check.paretoK = importanceKHat(ratios);
  check.fromStoredDraws = true;
  return check;
}

ElboTrace readElbo(const store::Project& project, store::Id run) {
  ElboTrace trace;
  for (const store::ElboPoint& point : project.elbo_trace(run)) {
    trace.points.push_back({point.iteration, point.elbo, point.rel_change});
  }
  for (const store::EpochRecord& e : project.training_epochs(run)) {
    trace.epochs.push_back({e.epoch, e.step, e.train_elbo, e.heldout_elbo, e.seconds, e.rows_per_second});
  }
  // The run's summary records where the convergence rule passed.
  if (const auto json = project.diagnostics_json(run)) {
    trace.convergedAt = convergedAt(*json);
    trace.pathPoints = pathTraces(*json);
  }
  return trace;
}

}  // namespace variate::ui
