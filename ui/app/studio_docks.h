#pragma once
/// The studio's panels, each in a dock the user can move, tab, float and close, and the
/// layout they start in. Each dock has a stable object name, so QMainWindow::saveState()
/// restores the user's layout on the next start.

#include <QList>

class QDockWidget;
class QMainWindow;
class QMenu;

namespace variate::ui {

class AutocorrelationPanel;
class CanvasPanel;
class DataPanel;
class DensityPanel;
class DiagnosticsPanel;
class ElboPanel;
class EnergyPanel;
class ForestPanel;
class LogPanel;
class LooPanel;
class ModelPanel;
class PairPanel;
class PredictiveCheckPanel;
class ProjectDocument;
class RankPanel;
class ReconstructionsPanel;
class RunConfigPanel;
class RunsPanel;
class SamplerStatsPanel;
class SbcPanel;
class TracePanel;
class WorkersPanel;

struct StudioDocks {
  ModelPanel* model;
  DataPanel* data;
  RunConfigPanel* runConfig;
  RunsPanel* runs;
  TracePanel* traces;
  DensityPanel* density;
  DiagnosticsPanel* diagnostics;
  ElboPanel* elbo;
  SamplerStatsPanel* sampler;
  LogPanel* log;
  CanvasPanel* canvas;
  WorkersPanel* workers;
  ReconstructionsPanel* reconstructions;
  PairPanel* pairs;
  RankPanel* ranks;
  AutocorrelationPanel* autocorrelation;
  EnergyPanel* energy;
  ForestPanel* forest;
  PredictiveCheckPanel* predictive;
  LooPanel* loo;
  SbcPanel* sbc;
  QList<QDockWidget*> docks;

  /// Creates every panel in a dock of `window` and lists the docks' toggles in `viewMenu`.
  static StudioDocks create(QMainWindow* window, QMenu* viewMenu);
  /// Model and settings on the left; traces, density, ELBO, canvas and the analysis plots
  /// (pairs, ranks, autocorrelation, energy, forest, predictive check, LOO, SBC) on the right above the diagnostics,
  /// sampler statistics, reconstructions and log.
  void applyDefaultLayout(QMainWindow* window) const;
  /// Brings the default front tab of each group forward; works once the window is shown.
  void raiseFrontTabs() const;
  /// For a deep model's training (it has no chains to show): the model and settings on
  /// the left, the ELBO over the reconstructions, the canvas on the right; call
  /// raiseTrainingTabs() once shown.
  void applyTrainingLayout(QMainWindow* window) const;
  /// The ELBO and the Reconstructions panel to the front of their groups.
  void raiseTrainingTabs() const;
  /// Gives every panel the document (nullptr: none open).
  void setDocument(ProjectDocument* document) const;
  QDockWidget* dock(const QString& objectName) const;

 private:
  void arrange(QMainWindow* window, bool training) const;
};

}  // namespace variate::ui
