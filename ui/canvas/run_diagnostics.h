#pragma once
/// The diagnostics the canvas shows for a run: from its posterior summary, each quantity's
/// split R-hat, bulk and tail ESS, mean and sd; from its draws, the parameters involved in divergent
/// transitions — those whose divergent draws gather in one tail of their posterior (the
/// median divergent draw below the 20th or above the 80th percentile of all draws).
/// Divergences concentrate where the posterior's geometry defeats the integrator, such as
/// small tau in the centred eight schools (Betancourt 2017, "A Conceptual Introduction to
/// Hamiltonian Monte Carlo", sec. 6.2), which is where a user should look.

#include <QHash>

#include "ui/canvas/node_diagnostics.h"

namespace variate::ui {

class RunData;

QHash<QString, ParameterDiagnostics> runDiagnostics(const RunData& run);

}  // namespace variate::ui
