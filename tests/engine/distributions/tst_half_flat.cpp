// HalfFlat(): log density 0 on the finite positive reals, -inf elsewhere; the family's
// table for the conformance fixture. It is improper, so every sampling check sees sample()
// throw.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/half_flat.h"

using namespace variate::testing;
using variate::distributions::HalfFlat;

namespace {

DensityCase density(const char* name, double x) { return {name, {}, scalar(x), 0.0}; }

Family half_flat() {
  Family f;
  f.name = "HalfFlat";
  f.make = [](const Parameters&) { return std::make_shared<HalfFlat>(); };
  f.reference = density("reference", 0.3);
  f.support = "positive";
  f.sampler_error = "HalfFlat: an improper distribution cannot be sampled";
  f.factory = [](std::string name) { return variate::HalfFlat(std::move(name), {2}); };
  f.factory_shape = {2};
  f.densities = {density("one", 1.0), density("tiny positive", 1e-300), density("huge", 1e300),
                 density("whole", 7.0)};
  f.gradients = {{"one", {}, scalar(1.0)}, {"large", {}, scalar(250.0)}};
  f.outside = outside_at({{"zero", 0.0}, {"negative", -2.0}, {"tiny negative", -1e-300},
                          {"plus infinity", kInf}, {"minus infinity", -kInf}, {"nan", kNaN}});
  // One value inside the support and one outside.
  f.shapes = {{"no parameters", {}, {}, {}, scalar(0.5), vector({1.0, -1.0})}};
  const std::string no_draws =
      "an improper distribution has no draws (shapesBroadcast and samplingIsReproducible "
      "check that sample() throws)";
  f.not_applicable = {
      {"invalidArgumentsThrow", "HalfFlat has no parameters"},
      {"nanParametersThrow", "HalfFlat has no parameters"},
      {"samplesHaveDtypeAndLieInSupport", no_draws},
      {"samplerMatchesMoments", no_draws},
      {"samplerFitsDistribution", no_draws},
  };
  return f;
}

}  // namespace

class TestHalfFlat : public DistributionConformance {
  Q_OBJECT

 public:
  TestHalfFlat() : DistributionConformance({half_flat()}) {}

 private slots:
  // On the graph with a gradient of exactly 0, inside the support and out of it.
  void gradientIsExactlyZero() {
    const at::Tensor x = vector({-1.0, 2.0, kInf}).requires_grad_(true);
    HalfFlat().log_prob(x).sum().backward();
    QVERIFY(x.grad().defined());
    QVERIFY(at::equal(x.grad(), at::zeros({3}, at::kDouble)));
  }
};

QTEST_APPLESS_MAIN(TestHalfFlat)
#include "tst_half_flat.moc"
