# Reference values for tst_loo: five fixed log-likelihood matrices (4 chains x 250 draws x
# N observations), written as Stan CSV chains (columns log_lik.1 ... log_lik.N), and what
# r-cran-loo 2.5.1 computes from them:
#   loo::loo(log_lik, r_eff = relative_eff(exp(log_lik), chain_id))
# Run from this folder: Rscript make_reference.R
library(loo)
library(jsonlite)
set.seed(20181203)
chains <- 4
draws <- 250
write_chains <- function(name, log_lik) {
  n <- ncol(log_lik)
  for (c in 1:chains) {
    rows <- log_lik[((c - 1) * draws + 1):(c * draws), , drop = FALSE]
    lines <- c("# model = loo_reference", paste0("log_lik.", 1:n, collapse = ","),
               apply(rows, 1, function(r) paste(sprintf("%.10g", r), collapse = ",")))
    writeLines(lines, sprintf("%s_chain_%d.csv", name, c))
  }
}
# An AR(1) across draws within each chain, so that r_eff differs from 1.
autocorrelated <- function(n_obs, rho) {
  x <- matrix(0, chains * draws, n_obs)
  for (c in 1:chains) {
    z <- matrix(rnorm(draws * n_obs), draws, n_obs)
    for (t in 2:draws) z[t, ] <- rho * z[t - 1, ] + sqrt(1 - rho^2) * z[t, ]
    x[((c - 1) * draws + 1):(c * draws), ] <- z
  }
  x
}
cases <- list(
  # A well-behaved normal model: every k small.
  normal = -0.5 * log(2 * pi) - 0.5 * (1 + 0.3 * autocorrelated(20, 0.5))^2,
  # Independent draws.
  independent = -1.2 + 0.4 * matrix(rnorm(chains * draws * 15), chains * draws, 15),
  # Strong autocorrelation: r_eff well below 1.
  sticky = -2 + 0.8 * autocorrelated(12, 0.9),
  # Influential observations: -log_lik exponential with rate 1.25 makes the ratios
  # exp(-log_lik) Pareto with k = 0.8, above the 0.7 threshold.
  outliers = cbind(-1 + 0.2 * matrix(rnorm(chains * draws * 8), chains * draws, 8),
                   -1 - matrix(rexp(chains * draws * 4, rate = 1.25), chains * draws, 4)),
  # Heavier still: k = 1.1.
  heavy = -1 - matrix(rexp(chains * draws * 6, rate = 0.9), chains * draws, 6)
)
# Ten significant digits, written exactly so (the CSV files hold what R computes from).
cases <- lapply(cases, function(x) signif(x, 10))
reference <- list()
for (name in names(cases)) {
  log_lik <- cases[[name]]
  write_chains(name, log_lik)
  chain_id <- rep(1:chains, each = draws)
  r_eff <- relative_eff(exp(log_lik), chain_id = chain_id)
  fit <- suppressWarnings(loo(log_lik, r_eff = r_eff))
  e <- fit$estimates
  reference[[name]] <- list(
    elpd_loo = e["elpd_loo", "Estimate"], se_elpd_loo = e["elpd_loo", "SE"],
    p_loo = e["p_loo", "Estimate"], se_p_loo = e["p_loo", "SE"],
    looic = e["looic", "Estimate"], se_looic = e["looic", "SE"],
    pareto_k = unname(fit$diagnostics$pareto_k), r_eff = unname(r_eff),
    pointwise_elpd = unname(fit$pointwise[, "elpd_loo"]))
}
# loo_compare of two models of the same 12 observations: normal's first 12 (also written as
# normal12_chain_*.csv) and sticky.
write_chains("normal12", cases$normal[, 1:12])
a <- suppressWarnings(loo(cases$normal[, 1:12], r_eff = relative_eff(exp(cases$normal[, 1:12]), rep(1:chains, each = draws))))
b <- suppressWarnings(loo(cases$sticky, r_eff = relative_eff(exp(cases$sticky), rep(1:chains, each = draws))))
comparison <- loo_compare(list(normal12 = a, sticky = b))
reference$compare <- list(models = rownames(comparison), elpd_diff = unname(comparison[, "elpd_diff"]),
                          se_diff = unname(comparison[, "se_diff"]))
writeLines(toJSON(reference, digits = NA, auto_unbox = TRUE, pretty = TRUE), "reference.json")
