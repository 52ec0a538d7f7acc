#pragma once
/// LU factorization with partial pivoting of a small dense matrix, for the stiff solver's
/// iteration matrix I - h gamma J.

#include <cstdint>
#include <vector>

namespace variate::ode {

/// Factors the n x n row-major matrix `a` in place; false if it is singular (or not finite).
bool lu_factor(std::vector<double>& a, std::vector<int64_t>& pivot, int64_t n);

/// Solves A X = B in place for B (n x m, row-major) from lu_factor's result.
void lu_solve(const std::vector<double>& lu, const std::vector<int64_t>& pivot, int64_t n, double* b, int64_t m);

}  // namespace variate::ode
