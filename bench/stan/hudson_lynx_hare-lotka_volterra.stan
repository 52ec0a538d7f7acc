// posteriordb's lotka_volterra in rstan 2.21's syntax.
functions {
  real[] dz_dt(real t, real[] z, real[] theta, real[] x_r, int[] x_i) {
    real u = z[1];
    real v = z[2];
    real du_dt = (theta[1] - theta[2] * v) * u;
    real dv_dt = (-theta[3] + theta[4] * u) * v;
    return { du_dt, dv_dt };
  }
}
data {
  int<lower=0> N;
  real ts[N];
  real y_init[2];
  real<lower=0> y[N, 2];
}
parameters {
  real<lower=0> theta[4];
  real<lower=0> z_init[2];
  real<lower=0> sigma[2];
}
transformed parameters {
  real z[N, 2] = integrate_ode_rk45(dz_dt, z_init, 0, ts, theta, rep_array(0.0, 0), rep_array(0, 0),
                                    1e-5, 1e-3, 5e2);
}
model {
  theta[{1, 3}] ~ normal(1, 0.5);
  theta[{2, 4}] ~ normal(0.05, 0.05);
  sigma ~ lognormal(-1, 1);
  z_init ~ lognormal(log(10), 1);
  for (k in 1:2) {
    y_init[k] ~ lognormal(log(z_init[k]), sigma[k]);
    y[, k] ~ lognormal(log(z[, k]), sigma[k]);
  }
}
