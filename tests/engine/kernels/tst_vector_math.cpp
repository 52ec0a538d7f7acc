// The vectorizable exp and log1p against the C library, over their whole useful ranges.

#include <cmath>
#include <limits>
#include <random>

#include <QtTest/QtTest>

#include "engine/kernels/vector_math.h"

namespace vk = variate::kernels;

namespace {

template <class T>
double relative_error(T got, double expected) {
  return std::abs(static_cast<double>(got) - expected) / std::abs(expected);
}

}  // namespace

class TestVectorMath : public QObject {
  Q_OBJECT

 private slots:
  void expMatchesLibrary() {
    std::mt19937_64 random(1);
    std::uniform_real_distribution<double> uniform(-700.0, 709.0);
    double worst = 0;
    for (int i = 0; i < 200000; ++i) {
      const double x = i < 1000 ? (i - 500) * 1e-3 : uniform(random);
      worst = std::max(worst, relative_error(vk::vexp(x), std::exp(x)));
    }
    QVERIFY2(worst < 4e-16, qPrintable(QString::number(worst)));
    QCOMPARE(vk::vexp(0.0), 1.0);
    QVERIFY(std::isinf(vk::vexp(710.0)));
    QVERIFY(vk::vexp(-800.0) < 1e-307 && vk::vexp(-800.0) >= 0);
  }

  void expFloatMatchesLibrary() {
    double worst = 0;
    for (int i = 0; i <= 100000; ++i) {
      const float x = -86.0f + 174.0f * static_cast<float>(i) / 100000.0f;
      worst = std::max(worst, relative_error(vk::vexp(x), std::exp(static_cast<double>(x))));
    }
    QVERIFY2(worst < 3e-7, qPrintable(QString::number(worst)));
    QVERIFY(std::isinf(vk::vexp(89.0f)));
  }

  // log1p on [0, 1], including values far below the rounding of 1 + u.
  void log1pMatchesLibrary() {
    double worst = 0;
    for (int i = 0; i <= 100000; ++i) {
      const double u = static_cast<double>(i) / 100000.0;
      if (u > 0) worst = std::max(worst, relative_error(vk::vlog1p_unit(u), std::log1p(u)));
    }
    for (double u = 1e-300; u < 1e-3; u *= 1.7) {
      worst = std::max(worst, relative_error(vk::vlog1p_unit(u), std::log1p(u)));
    }
    QVERIFY2(worst < 4e-16, qPrintable(QString::number(worst)));
    QCOMPARE(vk::vlog1p_unit(0.0), 0.0);
  }

  void log1pFloatMatchesLibrary() {
    double worst = 0;
    for (int i = 1; i <= 100000; ++i) {
      const float u = static_cast<float>(i) / 100000.0f;
      worst = std::max(worst, relative_error(vk::vlog1p_unit(u), std::log1p(static_cast<double>(u))));
    }
    for (float u = 1e-30f; u < 1e-3f; u *= 1.7f) {
      worst = std::max(worst, relative_error(vk::vlog1p_unit(u), std::log1p(static_cast<double>(u))));
    }
    QVERIFY2(worst < 3e-7, qPrintable(QString::number(worst)));
  }
};

QTEST_APPLESS_MAIN(TestVectorMath)
#include "tst_vector_math.moc"
