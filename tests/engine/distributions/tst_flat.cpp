// Flat(): log density 0 on the finite reals, -inf elsewhere; the family's table for the
// conformance fixture. It is improper, so every sampling check sees sample() throw.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/flat.h"

using namespace variate::testing;
using variate::distributions::Flat;

namespace {

DensityCase density(const char* name, double x) { return {name, {}, scalar(x), 0.0}; }

Family flat() {
  Family f;
  f.name = "Flat";
  f.make = [](const Parameters&) { return std::make_shared<Flat>(); };
  f.reference = density("reference", 0.3);
  f.support = "real";
  f.sampler_error = "Flat: an improper distribution cannot be sampled";
  f.factory = [](std::string name) { return variate::Flat(std::move(name), {3}); };
  f.factory_shape = {3};
  f.densities = {density("zero", 0.0), density("negative", -3.5), density("whole, negative", -2.0),
                 density("whole, positive", 7.0), density("huge", 1e300), density("tiny", -1e-300)};
  f.gradients = {{"negative", {}, scalar(-1.0)}, {"positive", {}, scalar(2.0)}};
  f.outside = outside_at({{"plus infinity", kInf}, {"minus infinity", -kInf}, {"nan", kNaN}});
  // One value inside the support and one outside.
  f.shapes = {{"no parameters", {}, {}, {}, scalar(0.5), vector({-3.5, kInf})}};
  const std::string no_draws =
      "an improper distribution has no draws (shapesBroadcast and samplingIsReproducible "
      "check that sample() throws)";
  f.not_applicable = {
      {"invalidArgumentsThrow", "Flat has no parameters"},
      {"nanParametersThrow", "Flat has no parameters"},
      {"samplesHaveDtypeAndLieInSupport", no_draws},
      {"samplerMatchesMoments", no_draws},
      {"samplerFitsDistribution", no_draws},
  };
  return f;
}

}  // namespace

class TestFlat : public DistributionConformance {
  Q_OBJECT

 public:
  TestFlat() : DistributionConformance({flat()}) {}

 private slots:
  // The result stays on the value's autograd graph, with a gradient of exactly 0 (not
  // NaN), so a model whose only term is Flat can still be differentiated.
  void gradientIsExactlyZero() {
    const at::Tensor x = vector({-1.0, 2.0, kInf}).requires_grad_(true);
    Flat().log_prob(x).sum().backward();
    QVERIFY(x.grad().defined());
    QVERIFY(at::equal(x.grad(), at::zeros({3}, at::kDouble)));
  }

  void factoryLeavesTheValueToBeGiven() { QVERIFY(!variate::Flat("mu", {3}).has_value()); }
};

QTEST_APPLESS_MAIN(TestFlat)
#include "tst_flat.moc"
