// `variate pathfinder` and `sample --init pathfinder` as a user runs them: on every
// reference posterior the draws' means are within 1 posterior sd of the reference, or
// k-hat flags the approximation; CmdStan's pathfinder CSV layout; the same seed gives the
// same draws; chains started from Pathfinder pass the reference check, and the run says so.

#include <cmath>

#include <QtTest/QtTest>

#include "tests/app/run_program.h"

using namespace app_test;

namespace {

const QString kReference = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/");

Outcome variate(const QStringList& arguments) { return run_program(VARIATE_EXECUTABLE, arguments, 600000); }

}  // namespace

class TestVariatePathfinder : public QObject {
  Q_OBJECT

 private slots:
  void drawsMatchEveryReferenceOrAreFlagged_data() {
    QTest::addColumn<QString>("name");
    for (const auto& name : QDir(kReference).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
      QTest::newRow(qPrintable(name)) << name;
    }
  }
  void drawsMatchEveryReferenceOrAreFlagged() {
    QFETCH(QString, name);
    const QString folder = kReference + name + "/";
    QTemporaryDir out;
    const Outcome r = variate({"pathfinder", folder + "model.vmod", "--data", folder + "data.json", "--seed", "1",
                               "--quiet", "--summary-json", out.filePath("s.json")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.output));
    const QJsonObject summary = read_json(out.filePath("s.json"));
    const QJsonValue k = summary["pathfinder"].toObject()["pareto_k"];
    const bool flagged = !summary["pathfinder"].toObject()["pareto_k_ok"].toBool();
    QCOMPARE(flagged, r.output.contains("Warning: k-hat is above 0.7"));
    const QJsonObject reference = read_json(folder + "reference.json")["parameters"].toObject();
    double worst = 0;
    QString worst_name;
    for (auto it = reference.begin(); it != reference.end(); ++it) {
      const double z = std::abs(summary["parameters"].toObject()[it.key()].toObject()["mean"].toDouble() -
                                it.value().toObject()["mean"].toDouble()) /
                       it.value().toObject()["sd"].toDouble();
      if (z > worst) std::tie(worst, worst_name) = std::make_pair(z, it.key());
    }
    qInfo("%s: worst |z| %.3f (%s), k-hat %s", qPrintable(name), worst, qPrintable(worst_name),
          qPrintable(k.isDouble() ? QString::number(k.toDouble(), 'f', 2) : k.toString()));
    QVERIFY2(worst < 1 || flagged, qPrintable(QString("%1 is %2 sd off and k-hat does not flag it").arg(worst_name).arg(worst)));
  }

  void writesCmdStansLayoutReproducibly() {
    QTemporaryDir out;
    const QString folder = kReference + "sblrc-blr/";
    const auto run = [&](const QString& dir) {
      return variate({"pathfinder", folder + "model.vmod", "--data", folder + "data.json", "--seed", "7", "--quiet",
                      "--num-paths", "2", "--draws", "100", "--psis-draws", "150", "--output", out.filePath(dir)});
    };
    QCOMPARE(run("a").exit_code, 0);
    QCOMPARE(run("b").exit_code, 0);
    const QStringList lines = lines_of(out.filePath("a/pathfinder.csv"));
    QVERIFY(lines.contains("# method = pathfinder"));
    QVERIFY(lines.contains("#     num_paths = 2"));
    QVERIFY(lines.contains("#     psis_resample = 1 (Default)"));
    QVERIFY(lines.filter("seconds (Pathfinders)").size() == 1);
    const QStringList rows = lines.filter(QRegularExpression("^[^#]"));
    QCOMPARE(rows.size(), 151);
    QCOMPARE(rows[0], QString("lp_approx__,lp__,beta.1,beta.2,beta.3,beta.4,beta.5,sigma"));
    QCOMPARE(lines_of(out.filePath("b/pathfinder.csv")).filter(QRegularExpression("^[^#]")), rows);
  }

  void chainsStartFromPathfinder() {
    QTemporaryDir out;
    const QString folder = kReference + "kidiq-kidscore_momhsiq/";
    const Outcome r = variate({"sample", folder + "model.vmod", "--data", folder + "data.json", "--seed", "2", "--init",
                               "pathfinder", "--summary-json", out.filePath("s.json")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.output));
    QVERIFY2(r.output.contains("Chains start at draws of Pathfinder"), qPrintable(r.output));
    const QJsonObject summary = read_json(out.filePath("s.json"));
    QCOMPARE(summary["init"].toObject()["method"].toString(), QString("pathfinder"));
    QVERIFY(summary["init"].toObject()["gradient_evaluations"].toInt() > 0);
    QVERIFY(summary["sampler"].toObject()["warmup_leapfrog_steps"].toInt() > 0);
    // posteriordb's rule, as tst_reference_posteriors applies it to the default start.
    const QJsonObject reference = read_json(folder + "reference.json")["parameters"].toObject();
    for (auto it = reference.begin(); it != reference.end(); ++it) {
      const QJsonObject p = summary["parameters"].toObject()[it.key()].toObject();
      const QJsonObject ref = it.value().toObject();
      const double se = std::sqrt(std::pow(p["mcse_mean"].toDouble(), 2) + std::pow(ref["sd"].toDouble(), 2) / 10000);
      QVERIFY2(std::abs(p["mean"].toDouble() - ref["mean"].toDouble()) < 4 * se, qPrintable(it.key()));
      QVERIFY(p["r_hat"].toDouble() < 1.01);
    }
  }

  void badInitFailsClearly() {
    const QString folder = kReference + "sblrc-blr/";
    const Outcome r = variate({"sample", folder + "model.vmod", "--data", folder + "data.json", "--init", "somewhere"});
    QVERIFY(r.exit_code != 0);
    QVERIFY2(r.output.contains("--init: expected a radius (a number >= 0), 'pathfinder', or init files (FILE.json, or "
                               "one per chain: A.json,B.json), got 'somewhere'"),
             qPrintable(r.output));
    const Outcome radius = variate({"sample", folder + "model.vmod", "--data", folder + "data.json", "--init", "0.5",
                                    "--chains", "1", "--warmup", "50", "--draws", "20", "--quiet", "--seed", "1"});
    QVERIFY2(radius.exit_code == 0, qPrintable(radius.output));
  }

  void helpListsPathfinder() {
    QVERIFY(variate({"--help"}).output.contains("pathfinder"));
    const Outcome help = variate({"pathfinder", "--help"});
    QCOMPARE(help.exit_code, 0);
    for (const auto& option : {"--num-paths", "--draws", "--psis-draws", "--no-psis-resample", "--elbo-draws"}) {
      QVERIFY2(help.output.contains(option), option);
    }
  }
};

QTEST_GUILESS_MAIN(TestVariatePathfinder)
#include "tst_variate_pathfinder.moc"
