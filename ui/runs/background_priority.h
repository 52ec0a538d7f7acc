#pragma once
/// Lowers the calling thread's scheduling priority (Linux nice +5; threads it starts
/// inherit it), so that the sampler's chains and the diagnostics give way to the UI
/// thread whenever it has work: the window stays responsive on a busy machine, and on an
/// otherwise idle one the chains still get every cycle the UI does not use.

namespace variate::ui {

/// Does nothing where threads have no nice value of their own.
void lowerCurrentThreadPriority();

}  // namespace variate::ui
