# Reference draws and diagnostics for tests/engine/diagnostics (Vehtari et al. 2021).
# Run from this folder: Rscript generate.R   (R 4.2, rstan 2.21.7)
#
# Each set is written as <name>.csv (one column per chain, rows are iterations, 17
# significant digits) and one row of expected.csv. Values come from rstan 2.21's own
# implementation (Rhat, ess_bulk, ess_tail and its internal rhat_rfun/ess_rfun/z_scale/
# split_chains), except where posterior (>= 1.5) and Stan 2.33 changed a definition:
#   *_blom: rank normalization with Blom's offset, (r - 3/8) / (S + 1/4), which posterior,
#           Stan and ArviZ use now (rstan 2.21 uses (r - 1/2) / S: the *_half columns);
#   mcse_sd: posterior's delta-method formula (Kenney & Keeping 1951), evaluated here with
#           rstan's ess_mean (rstan 2.21 itself uses a Stirling approximation).
# Every split chain length is 2,3,5-smooth, where rstan 2.21's FFT autocovariance is the
# exact biased autocovariance (for other lengths it is scaled by padded/actual length).
suppressMessages(library(rstan))
ns <- asNamespace("rstan")
split_chains <- get("split_chains", ns)
z_scale <- get("z_scale", ns)
rhat_rfun <- get("rhat_rfun", ns)
ess_rfun <- get("ess_rfun", ns)
ess_mean <- get("ess_mean", ns)
mcse_mean <- get("mcse_mean", ns)

z_blom <- function(x) {
  S <- length(x)
  z <- qnorm((rank(x, ties.method = "average") - 3 / 8) / (S + 1 / 4))
  array(z, dim = dim(x))
}
mcse_sd_posterior <- function(x) {
  xc <- x - mean(x)
  ess <- ess_mean(xc^2)
  evar <- mean(xc^2)
  sqrt((mean(xc^4) - evar^2) / ess / evar / 4)
}
ar1 <- function(n, chains, phi, sd = 1) {
  sapply(seq_len(chains), function(j) {
    as.numeric(arima.sim(list(ar = phi), n = n, sd = sd))
  })
}
iid_ar1 <- function(n, chains, phi) {
  # AR(1) with unit marginal variance started from stationarity, written out explicitly.
  sapply(seq_len(chains), function(j) {
    x <- numeric(n)
    x[1] <- rnorm(1)
    for (i in seq_len(n)[-1]) x[i] <- phi * x[i - 1] + sqrt(1 - phi^2) * rnorm(1)
    x
  })
}

sets <- list()
set.seed(20210101); sets$iid <- matrix(rnorm(4000), 1000, 4)
set.seed(20210102); sets$ar1_phi05 <- iid_ar1(1000, 4, 0.5)
set.seed(20210103); sets$ar1_phi09 <- iid_ar1(1000, 4, 0.9)
set.seed(20210104); sets$ar1_antithetic <- iid_ar1(1000, 4, -0.3)
set.seed(20210105); sets$shifted_means <- sweep(matrix(rnorm(4000), 1000, 4), 2, c(0, 0, 0, 1), "+")
set.seed(20210106); sets$heavy_tailed <- matrix(rt(4000, df = 1.5), 1000, 4)
set.seed(20210107); sets$short7 <- matrix(rnorm(28), 7, 4)
set.seed(20210108); sets$odd_length <- iid_ar1(1001, 4, 0.3)
set.seed(20210109); sets$single_chain <- iid_ar1(2000, 1, 0.6)
set.seed(20210110); sets$discrete <- matrix(as.numeric(rpois(2000, 3)), 500, 4)
set.seed(20210111); sets$large_offset <- 1e6 + iid_ar1(1000, 4, 0.2)
set.seed(20210112); sets$two_chains_trend <- sapply(1:2, function(j) rnorm(1000) + seq(0, 2, length.out = 1000))

num <- function(v) ifelse(is.na(v), "NA", sprintf("%.17g", v))
rows <- list()
for (name in names(sets)) {
  x <- sets[[name]]
  colnames(x) <- paste0("chain", seq_len(ncol(x)))
  body <- apply(x, 1, function(r) paste(num(r), collapse = ","))
  writeLines(c(paste(colnames(x), collapse = ","), body), paste0(name, ".csv"))
  folded <- abs(x - median(x))
  v <- c(
    mean = mean(x), sd = sd(x),
    q5 = unname(quantile(x, 0.05)), q50 = unname(quantile(x, 0.5)),
    q95 = unname(quantile(x, 0.95)),
    rhat_half = Rhat(x),
    rhat_bulk_half = rhat_rfun(z_scale(split_chains(x))),
    rhat_tail_half = rhat_rfun(z_scale(split_chains(folded))),
    ess_bulk_half = ess_bulk(x),
    rhat_blom = max(rhat_rfun(z_blom(split_chains(x))), rhat_rfun(z_blom(split_chains(folded)))),
    ess_bulk_blom = ess_rfun(z_blom(split_chains(x))),
    ess_tail = ess_tail(x),
    ess_mean = ess_mean(x),
    ess_sd = ess_mean((x - mean(x))^2),
    mcse_mean = mcse_mean(x),
    mcse_sd = mcse_sd_posterior(x))
  rows[[name]] <- c(name, num(v))
  header <- c("name", names(v))
}
writeLines(c(paste(header, collapse = ","), sapply(rows, paste, collapse = ",")), "expected.csv")
