#pragma once
/// A plot of estimates from all of a run's draws (densities, pairs, ranks, autocorrelations,
/// energies, intervals): new draws only mark it stale, and it is recomputed from the
/// run's draws at most every 250 ms, since such statistics need many draws to change
/// visibly. Sorting or transforming every draw of a long run takes far longer than a
/// frame, so a panel computes off the UI thread (computeOffThread) and only draws the
/// result on it.

#include <functional>
#include <memory>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>

#include "ui/threading/thread_handoff.h"
#include "ui/plots/analysis_pool.h"
#include "ui/plots/run_plot_panel.h"

namespace variate::ui {

class DerivedPlotPanel : public RunPlotPanel {
  Q_OBJECT

 public:
  using RunPlotPanel::RunPlotPanel;

 signals:
  /// After each recomputation from the run's draws is on the plot (tests wait for it).
  void recomputed();

 protected:
  /// Sets up the axes for plotted() (the run or the parameters changed).
  virtual void layOut() = 0;
  /// Replaces the plotted data with what the run's draws give now: directly, or through
  /// computeOffThread.
  virtual void recompute() = 0;
  /// An option of the panel changed: recompute soon (a result still being computed for
  /// the old option is dropped).
  void invalidate();

  /// Runs `compute` on a pool thread, then `show` with its result on the UI thread, unless
  /// the run, the parameters or an option changed meanwhile. `compute` must touch no
  /// widget and no live run: it works on what it captured (e.g. a copy of the run, whose
  /// chains share the immutable draw blocks).
  template <typename Compute, typename Show>
  void computeOffThread(Compute compute, Show show);

  /// A copy of the current run for computeOffThread (the run list changes the run itself
  /// as draws arrive).
  std::shared_ptr<const RunData> runSnapshot() const { return std::make_shared<const RunData>(*run()); }

 private:
  void rebuild() final;
  void append(const DrawBlocks&) final { dirty_ = true; }
  void redraw() final;
  /// On the UI thread, a computation's result (null: it failed) for `generation`.
  void arrived(int generation, const std::function<void()>& show);

  QElapsedTimer sinceRecompute_;
  bool dirty_ = true;
  bool computing_ = false;
  int generation_ = 0;  // counts changes that make a result under way stale
};

template <typename Compute, typename Show>
void DerivedPlotPanel::computeOffThread(Compute compute, Show show) {
  computing_ = true;
  QPointer<DerivedPlotPanel> self(this);
  const int generation = generation_;
  startAnalysis([self, generation, compute, show] {
    using Result = decltype(compute());
    std::shared_ptr<const Result> result;
    QString failure;
    try {
      result = std::make_shared<const Result>(compute());
    } catch (const std::exception& e) {  // never across the queued call
      failure = QString::fromUtf8(e.what());
    }
    // The application is the context: the panel may be gone, which only the UI thread
    // may ask.
    postCall(QCoreApplication::instance(), [self, generation, result, failure, show] {
      if (!failure.isEmpty()) qWarning("analysis panel: %s", qPrintable(failure));
      if (self) self->arrived(generation, result ? std::function<void()>([&] { show(*result); }) : nullptr);
    });
  });
}

}  // namespace variate::ui
