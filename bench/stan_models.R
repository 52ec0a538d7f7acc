# Samples one model with rstan for variate-bench-models.
# Usage: Rscript stan_models.R OUT_DIR STAN_FILE DATA_JSON CACHE_DIR CHAINS CORES WARMUP DRAWS SEED
# DATA_JSON is CmdStan JSON (the same file Variate reads). Writes OUT_DIR/draws.bin: the
# sampling draws of the parameters block (constrained) as doubles,
# [chain][iteration][parameter]. Prints "key value..." lines; the times are Stan's own
# (get_elapsed_time: its C++ sampler's clock, per chain, without R's overhead).
args <- commandArgs(trailingOnly = TRUE)
out_dir <- args[1]; stan_file <- args[2]; data_json <- args[3]; cache_dir <- args[4]
chains <- as.integer(args[5]); cores <- as.integer(args[6])
warmup <- as.integer(args[7]); draws <- as.integer(args[8]); seed <- as.integer(args[9])

script <- sub("^--file=", "", grep("^--file=", commandArgs(trailingOnly = FALSE), value = TRUE))
source(file.path(dirname(script), "stan_cached_model.R"))

model <- cached_stan_model(stan_file, tools::file_path_sans_ext(basename(stan_file)), cache_dir)

# jsonlite reads whole numbers as integers already; this also keeps whole-valued numbers
# that it read as doubles (e.g. written 3.0) integer, as Stan's int data needs.
whole <- function(x) {
  is.double(x) && length(x) > 0 && all(is.finite(x)) && all(x == round(x)) &&
    all(abs(x) <= .Machine$integer.max)
}
data <- lapply(jsonlite::read_json(data_json, simplifyVector = TRUE), function(x) {
  if (whole(x)) storage.mode(x) <- "integer"
  x
})

fit <- sampling(model, data = data, chains = chains, cores = cores, warmup = warmup,
                iter = warmup + draws, seed = seed, refresh = 0)
elapsed <- get_elapsed_time(fit)  # chains x (warmup, sample), seconds
cat("warmup_s", elapsed[, "warmup"], "\n")
cat("sampling_s", elapsed[, "sample"], "\n")
params <- get_sampler_params(fit, inc_warmup = TRUE)
cat("leapfrog", sum(sapply(params, function(p) sum(p[, "n_leapfrog__"]))), "\n")
sampling <- (warmup + 1):(warmup + draws)
cat("divergent", sum(sapply(params, function(p) sum(p[sampling, "divergent__"]))), "\n")
# The parameters block: what Variate samples (transformed parameters and generated
# quantities are left out). Its elements are named "theta_trans.1" there.
block <- fit@.MISC$stan_fit_instance$constrained_param_names(FALSE, FALSE)
pars <- unique(sub("\\..*$", "", block))
a <- as.array(fit, pars = pars)  # iterations x chains x parameters
cat("parameters", dim(a)[3], "\n")
cat("names", dimnames(a)[[3]], "\n")
con <- file(file.path(out_dir, "draws.bin"), "wb")
for (chain in seq_len(dim(a)[2])) {
  writeBin(as.vector(t(matrix(a[, chain, ], nrow = dim(a)[1]))), con)
}
close(con)
