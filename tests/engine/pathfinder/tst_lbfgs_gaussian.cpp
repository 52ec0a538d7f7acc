// The L-BFGS normal approximation of Pathfinder: its draws' log densities are those of
// N(mean, covariance()) (the thin-QR sampler and the log determinant agree with the dense
// covariance), the compact representation equals BFGS's sequential inverse updates, and the
// diagonal update keeps alpha positive.

#include <cmath>

#include <ATen/CPUGeneratorImpl.h>
#include <QtTest/QtTest>

#include "engine/pathfinder/lbfgs_gaussian.h"

namespace vt = variate;

namespace {

const at::TensorOptions kDouble = at::TensorOptions(at::kDouble);

// A precision matrix with correlations and scales from 0.1 to 10.
at::Tensor precision_matrix() {
  at::Generator g = at::make_generator<at::CPUGeneratorImpl>(21);
  const at::Tensor a = at::randn({4, 4}, g, kDouble);
  const at::Tensor scales = at::tensor({0.1, 1.0, 3.0, 10.0}, kDouble);
  return at::diag(scales) * 0 + at::matmul(a, a.t()) * at::outer(scales, scales) + at::eye(4, kDouble);
}

double normal_log_density(const at::Tensor& x, const at::Tensor& mean, const at::Tensor& covariance) {
  const at::Tensor diff = (x - mean).unsqueeze(1);
  const double quadratic = at::matmul(diff.t(), at::linalg_solve(covariance, diff)).item<double>();
  return -0.5 * (quadratic + std::get<1>(at::linalg_slogdet(covariance)).item<double>() + 4 * std::log(2 * M_PI));
}

}  // namespace

class TestLbfgsGaussian : public QObject {
  Q_OBJECT

 private slots:
  void compactFormIsTheSequentialBfgsUpdate() {
    // Sigma = diag(alpha) + beta gamma beta' must equal BFGS's inverse updates applied one
    // pair at a time, H <- (I - rho s y') H (I - rho y s') + rho s s', from H = diag(alpha),
    // and satisfy the last pair's secant condition Sigma y = s.
    const at::Tensor a = precision_matrix();
    at::Generator g = at::make_generator<at::CPUGeneratorImpl>(22);
    const at::Tensor s = at::randn({4, 3}, g, kDouble);
    const at::Tensor y = at::matmul(a, s);
    const at::Tensor alpha = at::tensor({0.5, 2.0, 1.0, 0.1}, kDouble);
    at::Tensor h = at::diag(alpha);
    for (int k = 0; k < 3; ++k) {
      const at::Tensor sk = s.select(1, k).unsqueeze(1), yk = y.select(1, k).unsqueeze(1);
      const double rho = 1 / at::matmul(yk.t(), sk).item<double>();
      const at::Tensor left = at::eye(4, kDouble) - rho * at::matmul(sk, yk.t());
      h = at::matmul(at::matmul(left, h), left.t()) + rho * at::matmul(sk, sk.t());
    }
    const at::Tensor x = at::tensor({1.0, -2.0, 0.5, 3.0}, kDouble);
    const at::Tensor grad_log_p = -at::matmul(a, x);
    const auto approximation = vt::LbfgsGaussian::at_point(x, grad_log_p, alpha, s, y);
    QVERIFY(approximation.has_value());
    QVERIFY2(at::allclose(approximation->covariance(), h, 1e-8, 1e-10),
             qPrintable(QString::number((approximation->covariance() - h).abs().max().item<double>())));
    QVERIFY(at::allclose(at::matmul(approximation->covariance(), y.select(1, 2)), s.select(1, 2), 1e-8, 1e-10));
    // The mean is one quasi-Newton step: x + Sigma grad log p(x).
    QVERIFY(at::allclose(approximation->mean(), x + at::matmul(h, grad_log_p), 1e-8, 1e-10));
  }

  void theDiagonalUpdateStaysPositive() {
    const at::Tensor a = precision_matrix();
    at::Generator g = at::make_generator<at::CPUGeneratorImpl>(24);
    at::Tensor alpha = at::ones({4}, kDouble);
    for (int k = 0; k < 20; ++k) {
      const at::Tensor s = at::randn({4}, g, kDouble);
      alpha = vt::update_diagonal(alpha, s, at::matmul(a, s));
      QVERIFY((alpha > 0).all().item<bool>() && at::isfinite(alpha).all().item<bool>());
    }
  }

  void drawsScoreAsTheDenseGaussian() {
    const at::Tensor a = precision_matrix();
    at::Generator g = at::make_generator<at::CPUGeneratorImpl>(23);
    // Two pairs only: a low-rank update on a non-trivial diagonal.
    const at::Tensor s = at::randn({4, 2}, g, kDouble);
    const at::Tensor y = at::matmul(a, s);
    at::Tensor alpha = at::tensor({0.5, 2.0, 1.0, 0.1}, kDouble);
    for (int k = 0; k < 2; ++k) alpha = vt::update_diagonal(alpha, s.select(1, k), y.select(1, k));
    const auto approximation =
        vt::LbfgsGaussian::at_point(at::zeros({4}, kDouble), at::zeros({4}, kDouble), alpha, s, y);
    QVERIFY(approximation.has_value());
    const auto [points, log_q] = approximation->draw(5, g);
    for (int i = 0; i < 5; ++i) {
      const double dense = normal_log_density(points[i], approximation->mean(), approximation->covariance());
      QVERIFY2(std::abs(log_q[i].item<double>() - dense) < 1e-8,
               qPrintable(QString("%1 vs %2").arg(log_q[i].item<double>()).arg(dense)));
    }
    // And their covariance is covariance() within Monte Carlo error.
    const auto [many, unused] = approximation->draw(40000, g);
    const at::Tensor centered = many - many.mean(0);
    const at::Tensor sample = at::matmul(centered.t(), centered) / 39999.0;
    const at::Tensor expected = approximation->covariance();
    const at::Tensor v = expected.diagonal();
    const at::Tensor z = (sample - expected).abs() / at::sqrt((at::outer(v, v) + expected * expected) / 40000.0);
    QVERIFY2(z.max().item<double>() < 5, qPrintable(QString::number(z.max().item<double>())));
  }

  void noPairsIsTheDiagonal() {
    const at::Tensor alpha = at::tensor({1.0, 4.0}, kDouble);
    const auto approximation = vt::LbfgsGaussian::at_point(at::zeros({2}, kDouble), at::ones({2}, kDouble), alpha,
                                                           at::zeros({2, 0}, kDouble), at::zeros({2, 0}, kDouble));
    QVERIFY(approximation.has_value());
    QVERIFY(at::allclose(approximation->covariance(), at::diag(alpha)));
    QVERIFY(at::allclose(approximation->mean(), alpha));
  }
};

QTEST_APPLESS_MAIN(TestLbfgsGaussian)
#include "tst_lbfgs_gaussian.moc"
