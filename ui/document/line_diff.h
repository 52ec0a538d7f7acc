#pragma once
/// The differences of two texts line by line, as a reader wants them before replacing one
/// with the other: "- " for a line only `before` has, "+ " for one only `after` has, two
/// lines of context around each change ("  "), "…" where unchanged lines are left out.

#include <QString>

namespace variate::ui {

/// Empty when the texts are equal line by line.
QString lineDifferences(const QString& before, const QString& after);

}  // namespace variate::ui
