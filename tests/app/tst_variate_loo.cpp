// `variate loo` and `variate compare` on Stan CSV chains against r-cran-loo 2.5.1 (the five
// fixed log-likelihood matrices of tests/data/loo, with Pareto k up to 1.25): every
// estimate, SE and Pareto k of the summary JSON to 1e-6, the k table and its warning,
// loo_compare's ranking, and clear errors.

#include <cmath>

#include <QtTest/QtTest>

#include "tests/app/run_program.h"

using namespace app_test;

namespace {

const QString kLoo = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/loo/");

Outcome variate(const QStringList& arguments) { return run_program(VARIATE_EXECUTABLE, arguments, 120000); }

QStringList chains(const QString& name) {
  QStringList files;
  for (int c = 1; c <= 4; ++c) files << kLoo + name + QString("_chain_%1.csv").arg(c);
  return files;
}

double number(const QJsonValue& v) { return v.isString() ? INFINITY : v.toDouble(); }

}  // namespace

class TestVariateLoo : public QObject {
  Q_OBJECT

 private slots:
  void matchesLoo_data() {
    QTest::addColumn<QString>("name");
    for (const char* name : {"normal", "independent", "sticky", "outliers", "heavy"}) QTest::newRow(name) << name;
  }
  void matchesLoo() {
    QFETCH(QString, name);
    QTemporaryDir out;
    const Outcome r = variate(QStringList{"loo"} + chains(name) + QStringList{"--summary-json", out.filePath("s.json")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.output));
    const QJsonObject ours = read_json(out.filePath("s.json"));
    const QJsonObject theirs = read_json(kLoo + "reference.json")[name].toObject();
    for (const auto& key : {"elpd_loo", "se_elpd_loo", "p_loo", "se_p_loo", "looic", "se_looic"}) {
      QVERIFY2(std::abs(ours[key].toDouble() - theirs[key].toDouble()) < 1e-6,
               qPrintable(QString("%1: %2 vs %3").arg(key).arg(ours[key].toDouble()).arg(theirs[key].toDouble())));
    }
    const QJsonArray k = ours["pareto_k"].toArray(), reference_k = theirs["pareto_k"].toArray();
    QCOMPARE(k.size(), reference_k.size());
    bool bad = false;
    for (int i = 0; i < k.size(); ++i) {
      const double a = number(k[i]), b = number(reference_k[i]);
      QVERIFY2((std::isinf(b) && a == b) || std::abs(a - b) < 1e-6, qPrintable(QString("k[%1]: %2 vs %3").arg(i + 1).arg(a).arg(b)));
      bad = bad || a > 0.7;
    }
    QCOMPARE(r.output.contains("Warning: "), bad);
    QVERIFY(r.output.contains(QString("Computed from 1000 by %1 log-likelihood matrix").arg(k.size())));
  }

  void comparesAsLooCompare() {
    QTemporaryDir out;
    const Outcome r = variate({"compare", "sticky=" + chains("sticky").join(','), "normal12=" + chains("normal12").join(','),
                               "--summary-json", out.filePath("c.json")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.output));
    const QJsonArray models = read_json(out.filePath("c.json"))["models"].toArray();
    const QJsonObject reference = read_json(kLoo + "reference.json")["compare"].toObject();
    QCOMPARE(models.size(), 2);
    for (int j = 0; j < 2; ++j) {
      const QJsonObject m = models[j].toObject();
      QCOMPARE(m["name"].toString(), reference["models"].toArray()[j].toString());
      QVERIFY(std::abs(m["elpd_diff"].toDouble() - reference["elpd_diff"].toArray()[j].toDouble()) < 1e-6);
      QVERIFY(std::abs(m["se_diff"].toDouble() - reference["se_diff"].toArray()[j].toDouble()) < 1e-6);
    }
  }

  // loo_compare's whole table (simplify = FALSE): each model's own estimates beside the
  // differences, sticky's against R's loo; models given as folders (named by them) and globs.
  void comparesFoldersAndGlobsWithTheWholeTable() {
    QTemporaryDir out;
    for (const QString& name : QStringList{"sticky", "normal12"}) {
      QVERIFY(QDir(out.path()).mkpath(name));
      for (int c = 1; c <= 4; ++c) {
        QVERIFY(QFile::copy(kLoo + name + QString("_chain_%1.csv").arg(c), out.filePath(name + QString("/chain_%1.csv").arg(c))));
      }
    }
    const Outcome folders = variate({"compare", out.filePath("sticky"), out.filePath("normal12") + "/", "--summary-json",
                                     out.filePath("folders.json")});
    QVERIFY2(folders.exit_code == 0, qPrintable(folders.output));
    QVERIFY2(folders.output.contains(QRegularExpression(
                 "elpd_diff +se_diff +elpd_loo +se_elpd_loo +p_loo +se_p_loo +looic +se_looic\n")),
             qPrintable(folders.output));
    const QJsonArray models = read_json(out.filePath("folders.json"))["models"].toArray();
    QCOMPARE(models.size(), 2);
    QCOMPARE(models[0].toObject()["name"].toString(), QString("normal12"));
    const QJsonObject sticky = models[1].toObject();
    QCOMPARE(sticky["name"].toString(), QString("sticky"));
    const QJsonObject reference = read_json(kLoo + "reference.json")["sticky"].toObject();
    for (const auto& key : {"elpd_loo", "se_elpd_loo", "p_loo", "se_p_loo", "looic", "se_looic"}) {
      QVERIFY2(std::abs(sticky[key].toDouble() - reference[key].toDouble()) < 1e-6, key);
    }
    // The printed row carries the same numbers, to one decimal.
    QVERIFY2(folders.output.contains(QRegularExpression(
                 "sticky +" + QString::number(sticky["elpd_diff"].toDouble(), 'f', 1) + " +[0-9.]+ +" +
                 QString::number(reference["elpd_loo"].toDouble(), 'f', 1))),
             qPrintable(folders.output));
    const Outcome globbed = variate({"compare", "s=" + out.filePath("sticky/chain_*.csv"),
                                     "n=" + out.filePath("normal12"), "--summary-json", out.filePath("globs.json")});
    QVERIFY2(globbed.exit_code == 0, qPrintable(globbed.output));
    const QJsonArray same = read_json(out.filePath("globs.json"))["models"].toArray();
    QCOMPARE(same[1].toObject()["elpd_loo"].toDouble(), sticky["elpd_loo"].toDouble());
    QCOMPARE(same[1].toObject()["name"].toString(), QString("s"));
    const Outcome none = variate({"compare", "s=" + out.filePath("sticky/run_*.csv"), "n=" + out.filePath("normal12")});
    QCOMPARE(none.exit_code, 1);
    QVERIFY2(none.output.contains("matches no file"), qPrintable(none.output));
    const Outcome twice = variate({"compare", out.filePath("sticky"), out.filePath("sticky")});
    QCOMPARE(twice.exit_code, 1);
    QVERIFY2(twice.output.contains("two models are named 'sticky'"), qPrintable(twice.output));
  }

  void badInputFailsClearly() {
    const Outcome mixed = variate({"loo", kLoo + "normal_chain_1.csv", kLoo + "sticky_chain_2.csv"});
    QCOMPARE(mixed.exit_code, 1);
    QVERIFY2(mixed.output.contains("the files must be chains of one run"), qPrintable(mixed.output));
    const Outcome different = variate({"compare", "a=" + kLoo + "normal_chain_1.csv", "b=" + kLoo + "sticky_chain_1.csv"});
    QCOMPARE(different.exit_code, 1);
    QVERIFY2(different.output.contains("models are compared on the same data"), qPrintable(different.output));
    const Outcome unnamed = variate({"compare", kLoo + "normal_chain_1.csv", kLoo + "sticky_chain_1.csv"});
    QCOMPARE(unnamed.exit_code, 1);
    QVERIFY2(unnamed.output.contains("expected NAME=FILE.csv"), qPrintable(unnamed.output));
    QTemporaryDir folder;
    QFile plain(folder.filePath("plain.csv"));
    plain.open(QIODevice::WriteOnly);
    plain.write("mu,sigma\n1,2\n3,4\n");
    plain.close();
    const Outcome none = variate({"loo", plain.fileName()});
    QCOMPARE(none.exit_code, 1);
    QVERIFY2(none.output.contains("has no log_lik columns"), qPrintable(none.output));
  }
};

QTEST_GUILESS_MAIN(TestVariateLoo)
#include "tst_variate_loo.moc"
