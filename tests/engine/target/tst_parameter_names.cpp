// Element names and column order as CmdStan writes them: column-major, 1-based.

#include <QtTest/QtTest>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/target/parameter_names.h"

namespace vt = variate;
using Names = std::vector<std::string>;

class TestParameterNames : public QObject {
  Q_OBJECT

 private slots:
  void scalarIsJustTheName() {
    QCOMPARE(vt::element_names("mu", {}, vt::NameStyle::StanCsv), Names{"mu"});
    QCOMPARE(vt::element_names("mu", {}, vt::NameStyle::Bracketed), Names{"mu"});
    QCOMPARE(vt::column_major_order({}), std::vector<int64_t>{0});
  }

  void vectorIsNumberedFromOne() {
    QCOMPARE(vt::element_names("theta", {3}, vt::NameStyle::StanCsv),
             (Names{"theta.1", "theta.2", "theta.3"}));
    QCOMPARE(vt::element_names("theta", {3}, vt::NameStyle::Bracketed),
             (Names{"theta[1]", "theta[2]", "theta[3]"}));
    QCOMPARE(vt::column_major_order({3}), (std::vector<int64_t>{0, 1, 2}));
  }

  void matrixIsColumnMajor() {
    QCOMPARE(vt::element_names("L", {2, 2}, vt::NameStyle::StanCsv),
             (Names{"L.1.1", "L.2.1", "L.1.2", "L.2.2"}));
    QCOMPARE(vt::element_names("L", {2, 3}, vt::NameStyle::Bracketed),
             (Names{"L[1,1]", "L[2,1]", "L[1,2]", "L[2,2]", "L[1,3]", "L[2,3]"}));
    QCOMPARE(vt::column_major_order({2, 3}), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
  }

  void threeDimensionsAndTenOrMore() {
    const auto names = vt::element_names("a", {2, 3, 2}, vt::NameStyle::StanCsv);
    QCOMPARE(names.size(), size_t{12});
    QCOMPARE(names[1], std::string("a.2.1.1"));
    QCOMPARE(names[2], std::string("a.1.2.1"));
    QCOMPARE(names[6], std::string("a.1.1.2"));
    QCOMPARE(names[11], std::string("a.2.3.2"));
    QCOMPARE(vt::element_names("v", {12}, vt::NameStyle::Bracketed)[11], std::string("v[12]"));
  }

  // The permutation must pick, for each name, the element of a row-major tensor that the
  // name's indices address.
  void orderMatchesTensorIndexing() {
    const variate::Shape shape{3, 4, 2};
    const auto tensor = at::arange(24, at::kDouble).reshape({3, 4, 2});
    const auto flat = tensor.reshape(-1);
    const auto names = vt::element_names("x", shape, vt::NameStyle::StanCsv);
    const auto order = vt::column_major_order(shape);
    QCOMPARE(order.size(), names.size());
    for (size_t k = 0; k < names.size(); ++k) {
      int i = 0, j = 0, l = 0;
      QCOMPARE(std::sscanf(names[k].c_str(), "x.%d.%d.%d", &i, &j, &l), 3);
      QCOMPARE(flat[order[k]].item<double>(), tensor[i - 1][j - 1][l - 1].item<double>());
    }
  }

  void emptyExtentHasNoElements() {
    QVERIFY(vt::element_names("z", {0}, vt::NameStyle::StanCsv).empty());
    QVERIFY(vt::element_names("z", {3, 0}, vt::NameStyle::Bracketed).empty());
    QVERIFY(vt::column_major_order({0, 2}).empty());
  }

  void negativeExtentThrows() {
    try {
      vt::element_names("z", {2, -1}, vt::NameStyle::StanCsv);
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("element_names: argument 'shape' must have non-negative extents, got [2, -1]"));
    }
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vt::column_major_order({-3}));
  }

  void convertsBetweenStyles_data() {
    QTest::addColumn<QString>("csv");
    QTest::addColumn<QString>("bracketed");
    QTest::newRow("scalar") << "mu" << "mu";
    QTest::newRow("sampler column") << "lp__" << "lp__";
    QTest::newRow("vector") << "theta.10" << "theta[10]";
    QTest::newRow("matrix") << "L.2.1" << "L[2,1]";
    QTest::newRow("3-d") << "a_b.1.2.3" << "a_b[1,2,3]";
  }
  void convertsBetweenStyles() {
    QFETCH(QString, csv);
    QFETCH(QString, bracketed);
    QCOMPARE(QString::fromStdString(vt::to_style(csv.toStdString(), vt::NameStyle::Bracketed)),
             bracketed);
    QCOMPARE(QString::fromStdString(vt::to_style(bracketed.toStdString(), vt::NameStyle::StanCsv)),
             csv);
    // Converting to the style a name already has changes nothing.
    QCOMPARE(QString::fromStdString(vt::to_style(csv.toStdString(), vt::NameStyle::StanCsv)), csv);
    QCOMPARE(QString::fromStdString(vt::to_style(bracketed.toStdString(), vt::NameStyle::Bracketed)),
             bracketed);
  }

  void bracketedNamesWithSpacesConvert() {
    QCOMPARE(vt::to_style("L[2, 1]", vt::NameStyle::StanCsv), std::string("L.2.1"));
  }
};

QTEST_APPLESS_MAIN(TestParameterNames)
#include "tst_parameter_names.moc"
