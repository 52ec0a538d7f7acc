#pragma once
/// Names of the scalar elements of a parameter, in the order CmdStan writes them.
///
/// CmdStan flattens arrays, vectors and matrices column-major (first index fastest) and
/// numbers elements from 1: a [2, 2] matrix L becomes L.1.1, L.2.1, L.1.2, L.2.2 in a
/// Stan CSV header, and L[1,1], L[2,1], L[1,2], L[2,2] in posteriordb and stansummary.
///
///   element_names("L", {2, 2}, NameStyle::StanCsv)  // {"L.1.1", "L.2.1", "L.1.2", "L.2.2"}
///   column_major_order({2, 2})                      // {0, 2, 1, 3}

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/shape.h"

namespace variate {

enum class NameStyle {
  StanCsv,    ///< theta.1, L.2.1 (Stan CSV column headers)
  Bracketed,  ///< theta[1], L[2,1] (posteriordb, stansummary, --summary-json)
};

/// One name per element of a parameter of `shape`, column-major; a scalar (shape {})
/// is just `name`, and a shape with a zero extent has no elements.
/// @throws ArgumentError if an extent is negative.
std::vector<std::string> element_names(const std::string& name, const Shape& shape,
                                       NameStyle style);

/// The permutation from CmdStan's column order to a row-major (C-contiguous) flattening:
/// entry k is the row-major offset of the k-th column. So `column[k] = flat[order[k]]`
/// for a tensor flattened with `reshape(-1)`.
/// @throws ArgumentError if an extent is negative.
std::vector<int64_t> column_major_order(const Shape& shape);

/// Converts one name between styles: "L.2.1" <-> "L[2,1]". Names without indices
/// ("mu", "lp__") are returned unchanged. Stan variable names cannot contain '.', so the
/// first '.' starts the indices.
std::string to_style(const std::string& name, NameStyle style);

}  // namespace variate
