// Earnings in dollars on height in inches (posteriordb earnings-earn_height), written
// from its model.vmod for Stan 2.21. Flat priors.
data {
  int<lower=0> N;
  vector[N] earn;
  vector[N] height;
}
parameters {
  vector[2] beta;
  real<lower=0> sigma;
}
model {
  earn ~ normal(beta[1] + beta[2] * height, sigma);
}
