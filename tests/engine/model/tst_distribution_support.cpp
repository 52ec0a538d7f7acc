// The support of every family, found by building it: what the studio's palette groups
// families by.

#include <QtTest/QtTest>

#include "engine/model/distribution_support.h"
#include "engine/model/distribution_table.h"

namespace vm = variate::model;
using Kind = variate::Support::Kind;

class TestDistributionSupport : public QObject {
  Q_OBJECT

 private slots:
  void everyFamilyHasOne() {
    for (const auto& name : vm::distribution_names()) {
      const auto support = vm::family_support(name);
      QVERIFY2(support.has_value(), name.c_str());
      QVERIFY2(!support->description.empty(), name.c_str());
    }
  }

  void knownFamilies_data() {
    QTest::addColumn<QString>("family");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("eventRank");
    QTest::newRow("Normal") << "Normal" << int(Kind::Real) << 0;
    QTest::newRow("HalfCauchy") << "HalfCauchy" << int(Kind::LowerBounded) << 0;
    QTest::newRow("Gamma") << "Gamma" << int(Kind::LowerBounded) << 0;
    QTest::newRow("Beta") << "Beta" << int(Kind::Interval) << 0;
    QTest::newRow("Uniform") << "Uniform" << int(Kind::Interval) << 0;
    QTest::newRow("Bernoulli") << "Bernoulli" << int(Kind::Boolean) << 0;
    QTest::newRow("Poisson") << "Poisson" << int(Kind::NonNegativeInteger) << 0;
    QTest::newRow("Binomial") << "Binomial" << int(Kind::IntegerInterval) << 0;
    QTest::newRow("Dirichlet") << "Dirichlet" << int(Kind::Simplex) << 1;
    QTest::newRow("MultiNormal") << "MultiNormal" << int(Kind::Real) << 1;
    QTest::newRow("LKJCorrCholesky") << "LKJCorrCholesky" << int(Kind::CholeskyCorr) << 2;
  }
  void knownFamilies() {
    QFETCH(QString, family);
    QFETCH(int, kind);
    QFETCH(int, eventRank);
    const auto support = vm::family_support(family.toStdString());
    QVERIFY(support.has_value());
    QCOMPARE(int(support->kind), kind);
    QCOMPARE(int(support->event_rank), eventRank);
    QVERIFY(!support->from_component);
  }

  void mixtureTakesItsComponents() {
    const auto support = vm::family_support("Mixture");
    QVERIFY(support.has_value());
    QVERIFY(support->from_component);
    QCOMPARE(int(support->kind), int(Kind::Real));
  }

  void unknownFamily() { QVERIFY(!vm::family_support("Normel").has_value()); }
};

QTEST_GUILESS_MAIN(TestDistributionSupport)
#include "tst_distribution_support.moc"
