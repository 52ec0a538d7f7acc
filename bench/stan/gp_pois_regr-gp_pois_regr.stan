// A latent Gaussian process with Poisson observations, non-centered (posteriordb
// gp_pois_regr-gp_pois_regr), written from its model.vmod for Stan 2.21 (cov_exp_quad is
// 2.21's name for gp_exp_quad_cov).
data {
  int<lower=1> N;
  real x[N];
  int k[N];
}
parameters {
  real<lower=0> rho;
  real<lower=0> alpha;
  vector[N] f_tilde;
}
transformed parameters {
  vector[N] f;
  {
    matrix[N, N] L_cov = cholesky_decompose(cov_exp_quad(x, alpha, rho)
                                            + diag_matrix(rep_vector(1e-10, N)));
    f = L_cov * f_tilde;
  }
}
model {
  rho ~ gamma(25, 4);
  alpha ~ normal(0, 2);
  f_tilde ~ normal(0, 1);
  k ~ poisson_log(f);
}
