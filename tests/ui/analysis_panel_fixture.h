#pragma once
// What the analysis panels' suites (pairs, ranks, autocorrelation, energy, forest) share:
// a project document holding a run made of given draws, shown in a panel offscreen, that
// grows through live updates as a sampling run's does.

#include <functional>
#include <memory>
#include <vector>

#include <QtTest/QtTest>

#include "engine/services/setting_table.h"
#include "tests/ui/studio_test_support.h"
#include "ui/document/project_document.h"
#include "ui/plots/derived_plot_panel.h"
#include "ui/plots/parameter_picker.h"

namespace analysis_test {

namespace services = variate::services;

using namespace variate::ui;

/// Iterations of one chain: values[iteration][column] and the sampler's row of each.
struct Iterations {
  std::vector<std::vector<double>> values;
  std::vector<SamplerRow> stats;

  void add(std::vector<double> row, SamplerRow stat = {}) {
    values.push_back(std::move(row));
    stats.push_back(stat);
  }
};

inline DrawBlockPtr block(int chain, int firstIteration, int warmup, const Iterations& rows) {
  auto block = std::make_shared<DrawBlock>();
  block->chain = chain;
  block->firstIteration = firstIteration;
  block->warmupIterations = warmup;
  block->columns = rows.values.empty() ? 0 : static_cast<int>(rows.values[0].size());
  for (const auto& row : rows.values) block->values.insert(block->values.end(), row.begin(), row.end());
  block->stats = rows.stats;
  return block;
}

/// A project with one model and no runs; runs are added with addRun().
class AnalysisFixture {
 public:
  AnalysisFixture() {
    QString error;
    document_ = ProjectDocument::create(dir_.filePath("analysis.variate"), "analysis", "mu ~ Normal(0, 1)\n", {},
                                        &error);
    if (!document_) qFatal("cannot create a project: %s", qPrintable(error));
  }

  ProjectDocument* document() { return document_.get(); }

  /// Adds a running NUTS run (id 1 upward) whose chain c holds chains[c], the first
  /// `warmup` iterations of each being warmup, made with `settings` (of as many chains as
  /// given unless they say otherwise); it becomes the current run.
  qint64 addRun(const QStringList& columns, int warmup, const std::vector<Iterations>& chains,
                services::Method method = services::Method::nuts, services::Settings settings = {}) {
    RunData run;
    run.id = ++lastId_;
    run.name = QString("run %1").arg(run.id);
    run.config.method = method;
    run.config.settings = std::move(settings);
    // As many chains as given, unless the settings say how many the run will have.
    if (!run.config.settings.given(services::setting::chains.descriptor())) {
      run.config.settings.set(services::setting::chains, static_cast<int>(chains.size()));
    }
    run.columnNames = columns;
    run.parameterColumns = static_cast<int>(columns.size());
    run.drawsLoaded = true;
    for (size_t c = 0; c < chains.size(); ++c) run.append(block(static_cast<int>(c), 0, warmup, chains[c]), 0);
    document_->runs()->add(std::move(run));
    return lastId_;
  }

  /// Appends `rows` to chain `chain` of run `id`, as one live update.
  void appendLive(qint64 id, int chain, const Iterations& rows) {
    const RunPtr run = document_->runs()->run(id);
    const ChainDraws& draws = run->chains[static_cast<size_t>(chain)];
    LiveUpdate update;
    update.blocks.push_back(block(chain, draws.iterations(), draws.warmupIterations(), rows));
    document_->runs()->applyLiveUpdate(id, update);
  }

 private:
  QTemporaryDir dir_;
  std::unique_ptr<ProjectDocument> document_;
  qint64 lastId_ = 0;
};

/// Shows `panel` on the fixture's document, picking `parameters`, and waits until it has
/// computed from the current run's draws.
inline bool showOn(DerivedPlotPanel& panel, AnalysisFixture& fixture, const QStringList& parameters = {}) {
  QSignalSpy recomputed(&panel, &DerivedPlotPanel::recomputed);
  panel.resize(900, 700);
  panel.setDocument(fixture.document());
  if (!parameters.isEmpty()) panel.picker()->setSelected(parameters);
  panel.show();
  if (!QTest::qWaitForWindowExposed(&panel)) return false;
  return !recomputed.isEmpty() || recomputed.wait(5000);
}

/// Does `action` (a live update, a changed option) and waits until the panel has
/// recomputed after it.
inline bool recomputesAfter(DerivedPlotPanel& panel, const std::function<void()>& action) {
  QSignalSpy recomputed(&panel, &DerivedPlotPanel::recomputed);
  action();
  return !recomputed.isEmpty() || recomputed.wait(5000);
}

/// Exports the panel's plot in every format; false with a message on the first failure.
inline bool exportsEveryFormat(DerivedPlotPanel& panel, QString* error) {
  QTemporaryDir dir;
  for (const char* extension : {"png", "svg", "pdf"}) {
    const QString path = dir.filePath(QString("plot.") + extension);
    if (!panel.exportTo(path, error)) return false;
    if (QFileInfo(path).size() < 200) {
      *error = path + " is nearly empty";
      return false;
    }
  }
  return true;
}

}  // namespace analysis_test
