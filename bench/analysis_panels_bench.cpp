// How long the studio's analysis panels (ranks, forest, autocorrelation, energy, pairs;
// density beside them) keep the UI thread from its events when they recompute from a
// large run: 4 chains of 100,000 post-warmup draws of 20 parameters, as many of them as
// each panel plots at most. For each panel, after a live batch of draws: the time until
// the plot holds the new result, and the longest the event loop went without running a
// 1 ms timer meanwhile (the UI thread's longest stall).
//
//   QT_QPA_PLATFORM=offscreen variate-bench-analysis-panels [--draws N] [--repeats R]

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest/QtTest>

#include "engine/services/setting_table.h"
#include "ui/docks/autocorrelation_panel.h"
#include "ui/docks/density_panel.h"
#include "ui/docks/energy_panel.h"
#include "ui/docks/forest_panel.h"
#include "ui/docks/pair_panel.h"
#include "ui/docks/rank_panel.h"
#include "ui/document/project_document.h"
#include "ui/plots/parameter_picker.h"

using namespace variate::ui;

namespace {

constexpr int kChains = 4;
constexpr int kParameters = 20;

// AR(1) draws (as a sampler's are correlated) with their energies and a few divergences.
DrawBlockPtr block(int chain, int first, int rows, std::mt19937_64& random) {
  auto b = std::make_shared<DrawBlock>();
  b->chain = chain;
  b->firstIteration = first;
  b->warmupIterations = 0;
  b->columns = kParameters;
  std::normal_distribution<double> normal;
  std::vector<double> last(kParameters, 0.0);
  for (int r = 0; r < rows; ++r) {
    for (int p = 0; p < kParameters; ++p) {
      last[static_cast<size_t>(p)] = 0.5 * last[static_cast<size_t>(p)] + normal(random) + p;
      b->values.push_back(last[static_cast<size_t>(p)]);
    }
    SamplerRow row;
    row.energy = 10 + normal(random);
    row.divergent = r % 997 == 0;
    b->stats.push_back(row);
  }
  return b;
}

struct Figures {
  double latencyMs = 0;
  double longestStallMs = 0;
};

Figures measure(DerivedPlotPanel& panel, ProjectDocument& document, qint64 run, std::mt19937_64& random) {
  LiveUpdate update;
  for (int c = 0; c < kChains; ++c) update.blocks.push_back(block(c, document.runs()->run(run)->chains[static_cast<size_t>(c)].iterations(), 1, random));
  QElapsedTimer clock, sinceTick;
  double longest = 0;
  QTimer tick;
  tick.setInterval(1);
  QObject::connect(&tick, &QTimer::timeout, [&] {
    longest = std::max(longest, sinceTick.nsecsElapsed() / 1e6);
    sinceTick.restart();
  });
  QSignalSpy recomputed(&panel, &DerivedPlotPanel::recomputed);
  clock.start();
  sinceTick.start();
  tick.start();
  document.runs()->applyLiveUpdate(run, update);
  recomputed.wait(60000);
  longest = std::max(longest, sinceTick.nsecsElapsed() / 1e6);
  return {clock.nsecsElapsed() / 1e6, longest};
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  int draws = 100000, repeats = 3;
  const QStringList arguments = app.arguments();
  for (int i = 1; i + 1 < arguments.size(); ++i) {
    if (arguments[i] == "--draws") draws = arguments[i + 1].toInt();
    if (arguments[i] == "--repeats") repeats = arguments[i + 1].toInt();
  }
  QTemporaryDir dir;
  QString error;
  auto document = ProjectDocument::create(dir.filePath("bench.variate"), "bench", "mu ~ Normal(0, 1)\n", {}, &error);
  if (!document) {
    std::fprintf(stderr, "error: %s\n", qPrintable(error));
    return 1;
  }
  std::mt19937_64 random(7);
  RunData data;
  data.id = 1;
  data.name = "bench";
  data.config.method = variate::services::Method::nuts;
  data.config.settings.set(variate::services::setting::chains, kChains);
  for (int p = 0; p < kParameters; ++p) data.columnNames << QString("theta[%1]").arg(p + 1);
  data.parameterColumns = kParameters;
  data.drawsLoaded = true;
  for (int c = 0; c < kChains; ++c) data.append(block(c, 0, draws, random), 0);
  document->runs()->add(std::move(data));

  std::printf("%d chains x %d draws of %d parameters; per panel, over %d recomputations after a live batch:\n",
              kChains, draws, kParameters, repeats);
  std::printf("%-16s %10s %10s %18s\n", "panel", "plotted", "latency ms", "longest stall ms");
  const auto run = [&](const char* name, DerivedPlotPanel& panel, int plotted) {
    QStringList names;
    for (int p = 0; p < plotted; ++p) names << QString("theta[%1]").arg(p + 1);
    panel.resize(900, 700);
    panel.setDocument(document.get());
    panel.picker()->setSelected(names);
    panel.show();
    QSignalSpy first(&panel, &DerivedPlotPanel::recomputed);
    first.wait(60000);
    for (int r = 0; r < repeats; ++r) {
      QTest::qWait(300);  // past the panel's 250 ms between recomputations
      const Figures f = measure(panel, *document, 1, random);
      std::printf("%-16s %10d %10.1f %18.1f\n", name, plotted, f.latencyMs, f.longestStallMs);
    }
    panel.hide();
  };
  RankPanel ranks;
  run("ranks", ranks, RunPlotPanel::maxPlotted());
  ForestPanel forest;
  run("forest", forest, RunPlotPanel::maxPlotted());
  AutocorrelationPanel autocorrelation;
  run("autocorrelation", autocorrelation, RunPlotPanel::maxPlotted());
  EnergyPanel energy;
  run("energy", energy, 1);
  PairPanel pairs;
  run("pairs", pairs, 4);
  DensityPanel density;  // not among the five, for comparison
  run("density", density, RunPlotPanel::maxPlotted());
  return 0;
}
