#pragma once
/// Everything a model program needs: random variables, tracing, distributions, bijectors,
/// and the unconstrained target inference works on.
///
///   #include <variate/variate.h>
///   namespace vt = variate;

#include "variate/core/checks.h"
#include "variate/core/condition.h"
#include "variate/core/data.h"
#include "variate/core/log_joint.h"
#include "variate/core/random_variable.h"
#include "variate/core/tape.h"
#include "variate/core/tensor_arg.h"
#include "variate/core/tracing.h"

#include "variate/core/distribution.h"
#include "variate/core/support.h"
#include "variate/distributions/bernoulli.h"
#include "variate/distributions/beta.h"
#include "variate/distributions/binomial.h"
#include "variate/distributions/categorical.h"
#include "variate/distributions/cauchy.h"
#include "variate/distributions/dirichlet.h"
#include "variate/distributions/exponential.h"
#include "variate/distributions/flat.h"
#include "variate/distributions/gamma.h"
#include "variate/distributions/half_cauchy.h"
#include "variate/distributions/half_flat.h"
#include "variate/distributions/half_normal.h"
#include "variate/distributions/half_student_t.h"
#include "variate/distributions/inv_gamma.h"
#include "variate/distributions/laplace.h"
#include "variate/distributions/lkj_corr_cholesky.h"
#include "variate/distributions/log_normal.h"
#include "variate/distributions/logistic.h"
#include "variate/distributions/mixture.h"
#include "variate/distributions/multi_normal.h"
#include "variate/distributions/neg_binomial_2.h"
#include "variate/distributions/normal.h"
#include "variate/distributions/poisson.h"
#include "variate/distributions/student_t.h"
#include "variate/distributions/uniform.h"
#include "variate/distributions/weibull.h"

#include "variate/bijectors/bijector.h"
#include "variate/bijectors/cholesky_corr.h"
#include "variate/bijectors/identity.h"
#include "variate/bijectors/interval.h"
#include "variate/bijectors/lower_bound.h"
#include "variate/bijectors/make_bijector.h"
#include "variate/bijectors/ordered.h"
#include "variate/bijectors/positive_ordered.h"
#include "variate/bijectors/simplex.h"
#include "variate/bijectors/upper_bound.h"

#include "variate/target/parameter_layout.h"
#include "variate/target/unconstrained_target.h"

// Variational inference: programs of random variables as families, the ELBO, ADVI.
#include "variate/vi/advi.h"
#include "variate/vi/elbo.h"
#include "variate/vi/variational_draws.h"
#include "variate/vi/variational_fullrank.h"
#include "variate/vi/variational_meanfield.h"
#include "variate/vi/variational_program.h"

// The posterior workflow: predictive draws and the pointwise log likelihood at a run's draws; auto-stop.
#include "variate/workflow/posterior_predictive.h"
#include "variate/workflow/predictive_tracer.h"
#include "variate/workflow/auto_stop.h"
