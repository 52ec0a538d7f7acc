# Times Stan (rstan) on the benchmark's logistic regression; called by variate-bench-logistic.
# Usage: Rscript stan_logistic.R DATA_DIR STAN_FILE CACHE_DIR WARMUP DRAWS GRAD_WARMUP GRAD_REPEATS SEED MAX_TREEDEPTH
# DATA_DIR holds dims.txt (N D), X.bin (N*D doubles, column-major), y.bin (N int32) and
# theta.bin (D doubles: where the gradient is timed). Prints "key value..." lines.
args <- commandArgs(trailingOnly = TRUE)
data_dir <- args[1]; stan_file <- args[2]; cache_dir <- args[3]
warmup <- as.integer(args[4]); draws <- as.integer(args[5])
grad_warmup <- as.integer(args[6]); grad_repeats <- as.integer(args[7]); seed <- as.integer(args[8])
max_treedepth <- as.integer(args[9])

source(file.path(dirname(stan_file), "stan_cached_model.R"))

dims <- scan(file.path(data_dir, "dims.txt"), quiet = TRUE)
N <- as.integer(dims[1]); D <- as.integer(dims[2])
X <- matrix(readBin(file.path(data_dir, "X.bin"), "double", n = N * D), nrow = N, ncol = D)
y <- readBin(file.path(data_dir, "y.bin"), "integer", n = N, size = 4)
theta <- readBin(file.path(data_dir, "theta.bin"), "double", n = D)

model <- cached_stan_model(stan_file, "logistic_regression", cache_dir)

# With no draws asked for, one iteration still gives grad_log_prob the fit it needs.
fit <- sampling(model, data = list(N = N, D = D, X = X, y = y), chains = 1,
                warmup = if (draws > 0) warmup else 0, iter = if (draws > 0) warmup + draws else 1,
                seed = seed, refresh = 0, control = list(max_treedepth = max_treedepth))
if (draws > 0) {
  params <- get_sampler_params(fit, inc_warmup = FALSE)[[1]]
  cat("nuts_leapfrog_all", sum(get_sampler_params(fit, inc_warmup = TRUE)[[1]][, "n_leapfrog__"]), "\n")
  elapsed <- get_elapsed_time(fit)
  cat("nuts_warmup_s", elapsed[1, "warmup"], "\n")
  cat("nuts_sampling_s", elapsed[1, "sample"], "\n")
  cat("nuts_leapfrog", sum(params[, "n_leapfrog__"]), "\n")
  cat("nuts_step_size", params[1, "stepsize__"], "\n")
  cat("nuts_divergent", sum(params[, "divergent__"]), "\n")
}

# grad_log_prob on the fit object: Stan's log density gradient through Rcpp, the same
# call for every repetition.
g <- grad_log_prob(fit, theta)
for (i in seq_len(grad_warmup)) grad_log_prob(fit, theta)
ms <- vapply(seq_len(grad_repeats), function(i) {
  t0 <- Sys.time()
  grad_log_prob(fit, theta)
  1000 * as.numeric(Sys.time() - t0, units = "secs")
}, numeric(1))
cat("grad_ms", median(ms), "\n")
cat("log_prob", format(attr(g, "log_prob"), digits = 17), "\n")
cat("gradient", format(as.numeric(g), digits = 17), "\n")
