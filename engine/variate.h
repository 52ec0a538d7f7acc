#pragma once
/// Everything a model program needs: random variables, tracing, distributions, bijectors.
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
#include "variate/distributions/normal.h"
