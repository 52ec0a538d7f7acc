// The radix-2 FFT against the O(n^2) sum it computes.

#include <QtTest/QtTest>

#include <cmath>
#include <complex>
#include <random>

#include "engine/core/argument_error.h"
#include "engine/diagnostics/fft.h"

namespace vd = variate::diagnostics;
using Complex = std::complex<double>;

namespace {

std::vector<Complex> naive_dft(const std::vector<Complex>& x, double sign) {
  const std::size_t n = x.size();
  const double pi = std::acos(-1.0);
  std::vector<Complex> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t j = 0; j < n; ++j) {
      out[k] += x[j] * std::polar(1.0, sign * 2 * pi * static_cast<double>(j * k % n) / static_cast<double>(n));
    }
  }
  return out;
}

double largest_difference(const std::vector<Complex>& a, const std::vector<Complex>& b) {
  double largest = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    largest = std::max(largest, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return largest / std::max(scale, 1.0);
}

}  // namespace

class TestFft : public QObject {
  Q_OBJECT

 private slots:
  void matchesTheSum_data() {
    QTest::addColumn<int>("n");
    for (int n : {1, 2, 4, 8, 16, 64, 512, 2048}) {
      QTest::newRow(qPrintable(QString::number(n))) << n;
    }
  }
  void matchesTheSum() {
    QFETCH(int, n);
    std::mt19937_64 rng(static_cast<uint64_t>(n));
    std::normal_distribution<double> normal;
    std::vector<Complex> x(static_cast<std::size_t>(n));
    for (auto& value : x) value = {normal(rng), normal(rng)};
    const vd::Fft& fft = vd::Fft::of_size(x.size());
    auto forward = x, backward = x;
    fft.forward(forward);
    fft.backward(backward);
    QVERIFY(largest_difference(forward, naive_dft(x, -1)) < 1e-12);
    QVERIFY(largest_difference(backward, naive_dft(x, +1)) < 1e-12);
    // backward(forward(x)) = n x
    fft.backward(forward);
    for (auto& value : forward) value /= static_cast<double>(n);
    QVERIFY(largest_difference(forward, x) < 1e-13);
  }

  void badLengthsAreRefused() {
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::Fft(0));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::Fft(12));
    std::vector<Complex> three(3);
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::Fft(4).forward(three));
    QCOMPARE(vd::next_power_of_two(1000), size_t{1024});
    QCOMPARE(vd::next_power_of_two(1024), size_t{1024});
  }
};

QTEST_APPLESS_MAIN(TestFft)
#include "tst_fft.moc"
