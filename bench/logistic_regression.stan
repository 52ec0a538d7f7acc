// The benchmark's logistic regression for Stan 2.21 (old array syntax), using the fused
// GLM likelihood. X's first column is the intercept, so alpha is fixed at 0.
data {
  int<lower=0> N;
  int<lower=1> D;
  matrix[N, D] X;
  int<lower=0, upper=1> y[N];
}
parameters {
  vector[D] beta;
}
model {
  beta ~ normal(0, 1);
  y ~ bernoulli_logit_glm(X, 0, beta);
}
