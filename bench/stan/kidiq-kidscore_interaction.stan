// Child test scores against mother's high-school completion, IQ and their interaction
// (posteriordb kidiq-kidscore_interaction), written from its model.vmod for Stan 2.21.
// Flat prior on beta.
data {
  int<lower=0> N;
  vector[N] kid_score;
  vector[N] mom_iq;
  vector[N] mom_hs;
}
transformed data {
  vector[N] inter = mom_hs .* mom_iq;
}
parameters {
  vector[4] beta;
  real<lower=0> sigma;
}
model {
  sigma ~ cauchy(0, 2.5);
  kid_score ~ normal(beta[1] + beta[2] * mom_hs + beta[3] * mom_iq + beta[4] * inter, sigma);
}
