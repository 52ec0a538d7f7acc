// arK (posteriordb arK-arK), written from tests/data/reference/arK-arK/model.vmod for
// Stan 2.21: an autoregressive model of order K, its lags as a matrix (as the .vmod).
data {
  int<lower=0> K;
  int<lower=0> T;
  real y[T];
}
transformed data {
  // Row t - K holds y[t-1], ..., y[t-K] for t = K+1..T.
  matrix[T - K, K] y_lagged;
  vector[T - K] y_target;
  for (t in (K + 1):T) {
    y_target[t - K] = y[t];
    for (k in 1:K) y_lagged[t - K, k] = y[t - k];
  }
}
parameters {
  real alpha;
  vector[K] beta;
  real<lower=0> sigma;
}
model {
  alpha ~ normal(0, 10);
  beta ~ normal(0, 10);
  sigma ~ cauchy(0, 2.5);
  y_target ~ normal(alpha + y_lagged * beta, sigma);
}
