#pragma once
/// The `variate` command line, which the studio starts as the other processes of a run on
/// several (rank_processes.h).

#include <QString>

namespace variate::ui {

/// The `variate` beside this program (an install's bin/, the build tree's app/), else the
/// one the environment's VARIATE_PROGRAM names (ctest names the build's for the suites).
/// @throws ArgumentError naming the places looked in when neither is there.
QString variateProgram();

}  // namespace variate::ui
