data {
  int<lower=1> N;
  int<lower=1> J;
  int<lower=1, upper=J> county_idx[N];
  vector[N] floor_measure;
  vector[N] log_uppm;
  vector[N] log_radon;
}
parameters {
  real mu_a;
  real<lower=0> sigma_a;
  vector[J] a;
  real beta_floor;
  real beta_uranium;
  real<lower=0> sigma_y;
}
model {
  mu_a ~ normal(0, 10);
  sigma_a ~ normal(0, 5);
  a ~ normal(mu_a, sigma_a);
  beta_floor ~ normal(0, 10);
  beta_uranium ~ normal(0, 10);
  sigma_y ~ normal(0, 5);
  log_radon ~ normal(a[county_idx] + beta_floor * floor_measure + beta_uranium * log_uppm, sigma_y);
}
