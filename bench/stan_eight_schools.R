# Samples eight schools (non-centered) with rstan for variate-bench-logistic's ESS/s table.
# Usage: Rscript stan_eight_schools.R OUT_DIR STAN_FILE CACHE_DIR CHAINS CORES WARMUP DRAWS SEED
# Writes OUT_DIR/draws.bin: the sampling draws of mu, log(tau) and theta_trans as doubles,
# [chain][iteration][parameter] (bulk-ESS is rank-based: log(tau) ranks as tau does).
# Prints "key value..." lines.
args <- commandArgs(trailingOnly = TRUE)
out_dir <- args[1]; stan_file <- args[2]; cache_dir <- args[3]
chains <- as.integer(args[4]); cores <- as.integer(args[5])
warmup <- as.integer(args[6]); draws <- as.integer(args[7]); seed <- as.integer(args[8])

source(file.path(dirname(stan_file), "stan_cached_model.R"))

model <- cached_stan_model(stan_file, "eight_schools_noncentered", cache_dir)

data <- list(J = 8L, y = c(28, 8, -3, 7, -1, 1, 18, 12), sigma = c(15, 10, 16, 11, 9, 11, 10, 18))
# Wall time of the whole run as a user waits for it: chains in parallel processes.
start <- Sys.time()
fit <- sampling(model, data = data, chains = chains, cores = cores, warmup = warmup,
                iter = warmup + draws, seed = seed, refresh = 0)
cat("wall_s", as.numeric(Sys.time() - start, units = "secs"), "\n")
params <- get_sampler_params(fit, inc_warmup = TRUE)
cat("leapfrog", sum(sapply(params, function(p) sum(p[, "n_leapfrog__"]))), "\n")
cat("divergent", sum(sapply(params, function(p) sum(p[(warmup + 1):(warmup + draws), "divergent__"]))), "\n")
elapsed <- get_elapsed_time(fit)
cat("chain_s", rowSums(elapsed), "\n")
a <- as.array(fit, pars = c("mu", "tau", "theta_trans"))  # iterations x chains x parameters
a[, , "tau"] <- log(a[, , "tau"])
con <- file(file.path(out_dir, "draws.bin"), "wb")
for (chain in seq_len(dim(a)[2])) writeBin(as.vector(t(a[, chain, ])), con)
close(con)
cat("parameters", dim(a)[3], "\n")
