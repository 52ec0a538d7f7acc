data {
  int<lower=1> N;
  int<lower=1> J;
  int<lower=1, upper=J> group[N];
  vector[N] y;
}
parameters {
  real mu;
  real<lower=0> tau;
  vector[J] theta;
}
model {
  mu ~ normal(0, 5);
  tau ~ normal(0, 2);
  theta ~ normal(mu, tau);
  y ~ normal(theta[group], 1);
}
