// Diamonds (posteriordb diamonds-diamonds), written from
// tests/data/reference/diamonds-diamonds/model.vmod for Stan 2.21: a linear regression on
// 24 centered predictors with Stan's normal_id_glm likelihood (as brms generates it).
// b_Intercept, a quantity derived after sampling, is left out: only sampling is timed.
data {
  int<lower=1> N;
  vector[N] Y;
  int<lower=1> K;
  matrix[N, K] X;
  int prior_only;  // declared by the data; the likelihood is always on
}
transformed data {
  vector[K - 1] means_X;
  matrix[N, K - 1] Xc;
  for (i in 2:K) {
    means_X[i - 1] = mean(X[, i]);
    Xc[, i - 1] = X[, i] - means_X[i - 1];
  }
}
parameters {
  vector[K - 1] b;
  real Intercept;
  real<lower=0> sigma;
}
model {
  b ~ normal(0, 1);
  Intercept ~ student_t(3, 8, 10);
  sigma ~ student_t(3, 0, 10);
  target += normal_id_glm_lpdf(Y | Xc, Intercept, b, sigma);
}
