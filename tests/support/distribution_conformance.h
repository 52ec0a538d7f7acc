#pragma once
/// The conformance fixture of the distribution suites, after Stan Math's
/// test/prob/test_fixture_distr.hpp: a family's suite is its table (a `Family` per
/// constructor form), and DistributionConformance runs every common check on every form.
/// Each check is a Qt Test function whose rows come from the table:
///
///   logProbMatchesReference           (a) densities: the table's log density (from a naive
///                                         formula), all constants, to `tolerance`; whole
///                                         values again as int64
///   gradientsMatchFiniteDifferences   (b) autograd vs central differences, w.r.t. the value
///                                         (continuous families) and every Real parameter
///   outsideSupportIsMinusInfinity     (c) out-of-support values give -inf ...
///   outsideSupportHasZeroGradient         ... and a gradient of exactly 0 (see below)
///   invalidArgumentsThrow             (d) ArgumentError with the exact message
///   nanParametersThrow                (d) each parameter set to NaN is rejected by name
///   shapesBroadcast                   (e) batch/event shapes, log_prob and sample shapes
///   batchMatchesSingleEvaluations     (g) a batch of values and parameters scores as each
///                                         element alone
///   samplesHaveDtypeAndLieInSupport   (f, h) float64 and float32 draws keep the parameters'
///                                         dtype (discrete draws too: counts and indicators
///                                         are floating, as the headers say), lie in
///                                         support() and have a finite log_prob
///   samplerMatchesMoments             (f) mean and variance (or quantiles) within 5 s.e.
///   samplerFitsDistribution           (f) KS against the CDF; frequencies and chi-square
///                                         against the mass function
///   samplingIsReproducible            (f) same seed same draws, other seed other draws
///   float32ParametersKeepFloat32      (h) the dtype of log_prob with float32 parameters
///   supportAndNameMatchHeader         (i) support().to_string() and name()
///   factoryBuildsRandomVariable           the RandomVariable factory
///
/// Outside the support the log density is the constant -inf, so its derivative with
/// respect to every parameter, and to a continuous value, is exactly 0 (an undefined
/// gradient counts as 0). Anything else, NaN above all, would poison the gradient of a
/// whole batch through a single out-of-support element. A value that is not a finite
/// number (+-inf, NaN) is outside every support too, but there the log density may be
/// NaN as well as -inf and its gradient is not checked: samplers treat a non-finite density
/// as a divergence either way, and masking it would cost every evaluation of the
/// real-line families (Normal, StudentT, ...) two more tensor operations on the sampler's
/// hot path.
///
/// A list left empty must say why in `not_applicable` (the row is then skipped with that
/// reason); a list with no reason fails.

#include <functional>
#include <string>
#include <vector>

#include <QObject>

#include "tests/support/distribution_table.h"

namespace variate::testing {

/// The common checks as Qt Test functions; a family's suite derives from it, passes its
/// forms, and adds private slots for what is specific to the family.
class DistributionConformance : public QObject {
  Q_OBJECT

 public:
  explicit DistributionConformance(std::vector<Family> forms);

 private slots:
  void logProbMatchesReference_data();
  void logProbMatchesReference();
  void gradientsMatchFiniteDifferences_data();
  void gradientsMatchFiniteDifferences();
  void outsideSupportIsMinusInfinity_data();
  void outsideSupportIsMinusInfinity();
  void outsideSupportHasZeroGradient_data();
  void outsideSupportHasZeroGradient();
  void invalidArgumentsThrow_data();
  void invalidArgumentsThrow();
  void nanParametersThrow_data();
  void nanParametersThrow();
  void shapesBroadcast_data();
  void shapesBroadcast();
  void batchMatchesSingleEvaluations_data();
  void batchMatchesSingleEvaluations();
  void samplesHaveDtypeAndLieInSupport_data();
  void samplesHaveDtypeAndLieInSupport();
  void samplerMatchesMoments_data();
  void samplerMatchesMoments();
  void samplerFitsDistribution_data();
  void samplerFitsDistribution();
  void samplingIsReproducible_data();
  void samplingIsReproducible();
  void float32ParametersKeepFloat32_data();
  void float32ParametersKeepFloat32();
  void supportAndNameMatchHeader_data();
  void supportAndNameMatchHeader();
  void factoryBuildsRandomVariable_data();
  void factoryBuildsRandomVariable();

 private:
  /// Adds one row per name (tagged with the form's label), or one "not applicable" row
  /// for a form whose list is empty.
  void add_rows(const std::function<std::vector<std::string>(const Family&)>& names);
  /// Runs `check` on the current row and reports its error, or skips a not-applicable
  /// row with the table's reason.
  void run(const char* check, const std::function<std::string(const Family&, int)>& body);

  std::vector<Family> forms_;
};

}  // namespace variate::testing
