# Reference values for tests/engine/diagnostics/tst_psis.cpp: log importance ratios
# (fixed by the seed) and what loo::psis (r_eff = 1) makes of them. Rerun with
#   Rscript tests/data/psis/make_reference.R > tests/data/psis/reference.json
# (Debian: r-cran-loo, r-cran-jsonlite).
suppressMessages({ library(loo); library(jsonlite) })
set.seed(20261202)
pareto_log <- function(n, k) log((runif(n)^(-k) - 1) / k)  # log of generalized Pareto draws
z <- matrix(rnorm(2000), ncol = 2)
rho <- 0.95
# A mean-field Gaussian q (sd sqrt(1 - rho^2) each) against a correlated 2-D Gaussian p.
q_sd <- sqrt(1 - rho^2)
x <- z * q_sd
log_p <- -0.5 * (x[, 1]^2 - 2 * rho * x[, 1] * x[, 2] + x[, 2]^2) / (1 - rho^2) - log(2 * pi * sqrt(1 - rho^2))
log_q <- rowSums(dnorm(x, 0, q_sd, log = TRUE))
cases <- list(
  normal_1 = rnorm(1000),
  normal_3 = rnorm(1000, sd = 3),
  student_3 = rt(4000, df = 3),
  pareto_0.3 = pareto_log(2000, 0.3),
  pareto_0.6 = pareto_log(2000, 0.6),
  pareto_0.9 = pareto_log(2000, 0.9),
  pareto_1.2 = pareto_log(2000, 1.2),
  small_50 = rnorm(50),
  exponential = -rexp(1000),
  mixture = c(rnorm(2500), rnorm(500, mean = 4, sd = 2)),
  meanfield_correlated = log_p - log_q,
  tail_too_short_20 = rnorm(20)
)
out <- lapply(names(cases), function(name) {
  r <- cases[[name]]
  p <- suppressWarnings(psis(r, r_eff = 1))
  list(name = name, log_ratios = r, pareto_k = pareto_k_values(p),
       log_weights = as.numeric(weights(p, log = TRUE, normalize = FALSE)))
})
cat(toJSON(list(loo_version = as.character(packageVersion("loo")), cases = out), digits = NA, auto_unbox = TRUE))
cat("\n")
