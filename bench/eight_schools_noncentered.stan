// Eight schools, non-centered (posteriordb's eight_schools_noncentered), for Stan 2.21.
data {
  int<lower=0> J;
  real y[J];
  real<lower=0> sigma[J];
}
parameters {
  real mu;
  real<lower=0> tau;
  vector[J] theta_trans;
}
transformed parameters {
  vector[J] theta = theta_trans * tau + mu;
}
model {
  mu ~ normal(0, 5);
  tau ~ cauchy(0, 5);
  theta_trans ~ normal(0, 1);
  y ~ normal(theta, sigma);
}
