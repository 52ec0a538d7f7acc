// Switching wells in Bangladesh (projects/arsenic_wells/wells.vmod) for Stan 2.21: a
// logistic regression.
data {
  int<lower=0> N;
  int<lower=0, upper=1> switched[N];
  vector[N] dist;
  vector[N] arsenic;
  vector[N] educ;
  vector[N] assoc;
}
transformed data {
  vector[N] dist100 = dist / 100;
  vector[N] educ4 = educ / 4;
}
parameters {
  real alpha;
  vector[4] beta;
}
model {
  alpha ~ normal(0, 2.5);
  beta ~ normal(0, 2.5);
  switched ~ bernoulli_logit(alpha + beta[1] * dist100 + beta[2] * arsenic + beta[3] * educ4
                             + beta[4] * assoc);
}
