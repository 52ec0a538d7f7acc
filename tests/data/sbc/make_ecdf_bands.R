# Writes ecdf_bands.txt: simultaneous ECDF bands for uniform values from bayesplot 1.10
# (Debian's r-cran-bayesplot), whose adjust_gamma with one sample (L = 1) is the
# optimization of Säilynoja, Bürkner & Vehtari (2022). Per case three lines: "N K prob
# gamma coverage" (the probability the optimization's intervals of that gamma hold
# together, by its own recursion), the lower counts at z = 0, 1/K, ..., 1, the upper
# counts. Run from this folder:
#   Rscript make_ecdf_bands.R > ecdf_bands.txt
cases <- list(c(20, 20, 0.95), c(50, 21, 0.99), c(100, 101, 0.99), c(200, 101, 0.99),
              c(200, 41, 0.95), c(30, 100, 0.99))
# adjust_gamma_optimize's objective, returning the coverage itself.
coverage <- function(gamma, N, K) {
  z <- 1:(K - 1) / K
  z1 <- c(0, z)
  z2 <- c(z, 1)
  lower <- qbinom(gamma / 2, N, z2)
  upper <- c(N - rev(lower)[2:K], 1)
  x1 <- 0
  p <- 1
  for (i in seq_along(z1)) {
    p <- bayesplot:::p_interior(p_int = p, x1 = x1, x2 = lower[i]:upper[i], z1 = z1[i], z2 = z2[i], N = N)
    x1 <- lower[i]:upper[i]
  }
  sum(p)
}
for (case in cases) {
  N <- case[1]; K <- case[2]; prob <- case[3]
  gamma <- bayesplot:::adjust_gamma(N = N, K = K, prob = prob)
  limits <- bayesplot:::ecdf_intervals(gamma, N, K)
  cat(sprintf("%d %d %.2f %.10g %.15g\n", N, K, prob, gamma, coverage(gamma, N, K)))
  cat(paste(limits$lower, collapse = " "), "\n", sep = "")
  cat(paste(limits$upper, collapse = " "), "\n", sep = "")
}
