# Writes a reference folder's stan_logdensity.json: Stan's (rstan 2.21) log density at 4
# points drawn uniformly on (-2, 2) in the unconstrained space (Stan's default inits),
# without and with the Jacobian, its gradient with the Jacobian, and the constrained values.
# Usage (from the repository root; needs r-cran-rstan and r-cran-jsonlite):
#   Rscript tests/data/make_stan_logdensity.R NAME SEED [POINTS.json] > tests/data/reference/NAME/stan_logdensity.json
# POINTS.json, a list of 4 constrained parameter sets (draws of the reference posterior),
# replaces the random points where those make the model fail (an ODE that blows up).
# NAME's Stan program is bench/stan/NAME.stan; its data tests/data/reference/NAME/data.json.
args <- commandArgs(trailingOnly = TRUE)
name <- args[1]; seed <- as.integer(args[2])
suppressPackageStartupMessages(library(rstan))
rstan_options(boost_lib = "/usr/include")  # Debian's r-cran-bh is virtual

folder <- file.path("tests/data/reference", name)
data <- jsonlite::read_json(file.path(folder, "data.json"), simplifyVector = TRUE)
model <- stan_model(file.path("bench/stan", paste0(name, ".stan")), model_name = "m")
# One iteration gives log_prob and grad_log_prob the fit object they need.
fit <- sampling(model, data = data, chains = 1, iter = 1, warmup = 0, seed = seed,
                refresh = 0, algorithm = "Fixed_param")

set.seed(seed)
d <- get_num_upars(fit)
given <- if (length(args) >= 3) jsonlite::read_json(args[3]) else NULL
points <- lapply(1:4, function(i) {
  u <- if (is.null(given)) runif(d, -2, 2) else unconstrain_pars(fit, lapply(given[[i]], unlist))
  list(unconstrained = u,
       stan_lp = log_prob(fit, u, adjust_transform = FALSE),
       stan_lp_jacobian = log_prob(fit, u, adjust_transform = TRUE),
       stan_grad_unconstrained_jacobian = as.numeric(grad_log_prob(fit, u, adjust_transform = TRUE)),
       params = lapply(constrain_pars(fit, u), as.numeric))
})
out <- list(posterior = name,
            note = paste("Stan (rstan 2.21) log density at 4 points. Stan drops additive constants,",
                         "so only differences between points are comparable: lp[i] - lp[1]."),
            points = points)
cat(jsonlite::toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE), "\n")
