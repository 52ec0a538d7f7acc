# What both Stan scripts share: rstan loaded for Debian, and a model compiled once per
# model text and rstan version (later runs load the cached model from CACHE_DIR).
# Prints "compiled cached|fresh PATH" and "compile_s SECONDS".
suppressPackageStartupMessages(library(rstan))
# Debian's r-cran-bh is virtual: Boost lives in /usr/include.
rstan_options(boost_lib = "/usr/include")

cached_stan_model <- function(stan_file, model_name, cache_dir) {
  key <- unname(tools::md5sum(stan_file))
  cache <- file.path(cache_dir, sprintf("%s_%s_rstan%s.rds", model_name, key,
                                        as.character(packageVersion("rstan"))))
  start <- Sys.time()
  if (file.exists(cache)) {
    model <- readRDS(cache)
    cat("compiled cached", cache, "\n")
  } else {
    model <- stan_model(stan_file, model_name = model_name)
    dir.create(cache_dir, recursive = TRUE, showWarnings = FALSE)
    saveRDS(model, cache)
    cat("compiled fresh", cache, "\n")
  }
  cat("compile_s", as.numeric(Sys.time() - start, units = "secs"), "\n")
  model
}
