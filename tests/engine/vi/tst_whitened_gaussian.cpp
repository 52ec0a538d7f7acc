// ADVI's Gaussians in whitened coordinates: they start at the estimate (mean-field at its
// mean-field optimum, sd_i = 1 / sqrt(precision_ii); full-rank at N(c, Sigma)), their
// programs draw from the family they stand for, to_plain() hands back the same Gaussian as
// the built-in family, and a covariance that is not positive definite is refused.

#include <QtTest/QtTest>

#include <ATen/CPUGeneratorImpl.h>

#include "engine/variate.h"
#include "engine/vi/variational_draws.h"
#include "engine/vi/variational_fullrank.h"
#include "engine/vi/variational_meanfield.h"
#include "engine/vi/whitened_gaussian.h"

namespace vt = variate;

namespace {

const at::TensorOptions kDouble = at::TensorOptions(at::kDouble);

vt::ParameterLayout layout() {
  auto log_joint = vt::make_log_joint(
      [] {
        vt::Normal("a", 0.0, 1.0);
        vt::Normal("b", 0.0, 1.0, {2});
      },
      vt::Data());
  return vt::ParameterLayout::from_model(log_joint);
}

const at::Tensor kCenter = at::tensor({1.0, -2.0, 3.0}, kDouble);
const at::Tensor kCovariance = at::tensor({4.0, 1.5, 0.0, 1.5, 1.0, 0.3, 0.0, 0.3, 0.25}, kDouble).reshape({3, 3});

// `n` draws of a family's program as [n, 3] rows (a, b[1], b[2]).
at::Tensor draw(const vt::VariationalFamily& family, const vt::ParameterLayout& layout, int n) {
  at::NoGradGuard no_grad;
  return vt::draw_variational(family, layout, n, at::make_generator<at::CPUGeneratorImpl>(3)).unconstrained;
}

}  // namespace

class TestWhitenedGaussian : public QObject {
  Q_OBJECT

 private slots:
  void meanFieldStartsAtItsOptimum() {
    vt::WhitenedGaussian q(layout(), vt::AdviMethod::meanfield, kCenter, kCovariance);
    QCOMPARE(q.name(), std::string("meanfield"));
    const auto plain = std::dynamic_pointer_cast<vt::MeanFieldGaussian>(q.to_plain());
    QVERIFY(plain);
    QVERIFY(at::allclose(plain->mu(), kCenter));
    const at::Tensor expected = 1 / at::sqrt(at::inverse(kCovariance).diagonal());
    QVERIFY(at::allclose(plain->scale(), expected));
  }

  void fullRankStartsAtTheEstimate() {
    vt::WhitenedGaussian q(layout(), vt::AdviMethod::fullrank, kCenter, kCovariance);
    const auto plain = std::dynamic_pointer_cast<vt::FullRankGaussian>(q.to_plain());
    QVERIFY(plain);
    QVERIFY(at::allclose(plain->mu(), kCenter));
    QVERIFY(at::allclose(plain->covariance(), kCovariance, 1e-10, 1e-12));
  }

  void programsDrawFromTheFamily() {
    vt::WhitenedGaussian q(layout(), vt::AdviMethod::fullrank, kCenter, kCovariance);
    // Move away from the start so that the whitened parameters matter.
    {
      at::NoGradGuard no_grad;
      q.parameters()[0].copy_(at::tensor({0.5, -1.0, 0.2}, kDouble));
      q.parameters()[1].copy_(at::tensor({0.0, 0.0, 0.0, 0.4, 0.0, 0.0, -0.3, 0.2, 0.0}, kDouble).reshape({3, 3}));
      q.parameters()[2].copy_(at::tensor({0.1, -0.2, 0.3}, kDouble));
    }
    const auto plain = std::dynamic_pointer_cast<vt::FullRankGaussian>(q.to_plain());
    QVERIFY(at::allclose(*q.unconstrained_mean(), plain->mu()));
    const at::Tensor draws = draw(q, layout(), 4000);
    const at::Tensor centered = draws - plain->mu();
    const at::Tensor sample = at::matmul(centered.t(), centered) / 4000.0;
    const at::Tensor expected = plain->covariance();
    const at::Tensor v = expected.diagonal();
    const at::Tensor z = (sample - expected).abs() / at::sqrt((at::outer(v, v) + expected * expected) / 4000.0);
    QVERIFY2(z.max().item<double>() < 5, qPrintable(QString::number(z.max().item<double>())));
  }

  void anIndefiniteCovarianceIsRefused() {
    const at::Tensor bad = at::tensor({1.0, 2.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 1.0}, kDouble).reshape({3, 3});
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::WhitenedGaussian(layout(), vt::AdviMethod::meanfield, kCenter, bad));
  }
};

QTEST_APPLESS_MAIN(TestWhitenedGaussian)
#include "tst_whitened_gaussian.moc"
