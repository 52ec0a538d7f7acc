#pragma once
/// The threads the analysis panels compute on (DerivedPlotPanel::computeOffThread): a pool
/// of their own, not QThreadPool::globalInstance(). Qt's raster engine splits large fills
/// over the global pool and waits for them, so a panel's half-second computation there
/// stalled the UI thread's next paint for as long (bench/soak.sh found stalls of 1.3 s
/// with every panel open). Its threads run at the chains' lowered priority.

#include <functional>

namespace variate::ui {

/// Runs `task` on the analysis pool (as many threads as cores).
void startAnalysis(std::function<void()> task);

}  // namespace variate::ui
