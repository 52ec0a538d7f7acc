// Kilpisjarvi summer temperatures, a linear trend on unstandardized years (posteriordb
// kilpisjarvi_mod-kilpisjarvi), written from its model.vmod for Stan 2.21. Priors as data.
data {
  int<lower=0> N;
  vector[N] x;
  vector[N] y;
  real pmualpha;
  real psalpha;
  real pmubeta;
  real psbeta;
}
parameters {
  real alpha;
  real beta;
  real<lower=0> sigma;
}
model {
  alpha ~ normal(pmualpha, psalpha);
  beta ~ normal(pmubeta, psbeta);
  y ~ normal(alpha + beta * x, sigma);
}
