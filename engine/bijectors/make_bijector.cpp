#include "engine/bijectors/make_bijector.h"

#include "engine/bijectors/cholesky_corr.h"
#include "engine/bijectors/identity.h"
#include "engine/bijectors/interval.h"
#include "engine/bijectors/lower_bound.h"
#include "engine/bijectors/ordered.h"
#include "engine/bijectors/positive_ordered.h"
#include "engine/bijectors/simplex.h"
#include "engine/bijectors/upper_bound.h"
#include "engine/core/checks.h"

namespace variate::bijectors {

BijectorPtr make_bijector(const Support& support) {
  using Kind = Support::Kind;
  switch (support.kind()) {
    case Kind::Real: return std::make_shared<Identity>();
    case Kind::LowerBounded: return std::make_shared<LowerBound>(support.lower());
    case Kind::UpperBounded: return std::make_shared<UpperBound>(support.upper());
    case Kind::Interval: return std::make_shared<Interval>(support.lower(), support.upper());
    case Kind::Ordered: return std::make_shared<Ordered>();
    case Kind::PositiveOrdered: return std::make_shared<PositiveOrdered>();
    case Kind::Simplex: return std::make_shared<Simplex>();
    case Kind::CholeskyCorr: return std::make_shared<CholeskyCorr>();
    case Kind::Boolean:
    case Kind::NonNegativeInteger:
    case Kind::IntegerInterval:
      break;
  }
  throw ArgumentError("make_bijector: no bijector for the discrete support '" +
                      support.to_string() + "'");
}

}  // namespace variate::bijectors
