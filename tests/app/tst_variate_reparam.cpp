// `variate sample --reparam` (model/reparameterize.h, services/reparam_pilot.h) as a user
// runs it, at defaults: the centered eight schools and a centered radon model sample their
// posteriors with at most 0.5% of transitions divergent; groups with hundreds of
// observations are sampled as written; the CSV files and the summary say what was
// reparameterized; settings that cannot apply are refused with a message.

#include <cmath>

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include "tests/support/reference_rule.h"

using json = nlohmann::json;

namespace {

const QString kData = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/");
const QString kProjects = QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects/");
const QString kEightSchools = kData + "reference/eight_schools-eight_schools_noncentered/";

json read_json(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return json::parse(file.readAll().toStdString());
}

struct Run {
  int exit_code = -1;
  QString log;
  json summary;
  QString csv;  // chain 1's file
};

Run sample(const QString& model, const QString& data, const QStringList& more = {}) {
  QTemporaryDir output;
  QProcess process;
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.start(VARIATE_EXECUTABLE, QStringList{"sample", model, "--data", data, "--seed", "1", "--quiet", "--output",
                                                output.path(), "--summary-json", output.filePath("s.json")} +
                                        more);
  Run run;
  if (!process.waitForFinished(600000)) {
    process.kill();
    return run;
  }
  run.exit_code = process.exitCode();
  run.log = QString::fromUtf8(process.readAll());
  run.summary = read_json(output.filePath("s.json"));
  QFile csv(output.filePath("chain_1.csv"));
  if (csv.open(QIODevice::ReadOnly)) run.csv = QString::fromUtf8(csv.readAll());
  return run;
}

double divergent_share(const Run& run) {
  const json& sampler = run.summary["sampler"];
  return sampler["divergences"].get<double>() / 4000;
}

}  // namespace

class TestVariateReparam : public QObject {
  Q_OBJECT

 private slots:
  void centeredEightSchoolsMatchesTheReference() {
    const Run run = sample(kData + "reparam/eight_schools_centered.vmod", kEightSchools + "data.json");
    QVERIFY2(run.exit_code == 0, qPrintable(run.log));
    QVERIFY2(divergent_share(run) <= 0.005, qPrintable(QString::number(divergent_share(run))));
    const json reference = read_json(kEightSchools + "reference.json");
    const QStringList failures =
        variate::testing::reference_mismatches(run.summary["parameters"], reference["parameters"], reference["ndraws"]);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
    // Where the data say little the pilot keeps every school non-centered.
    QCOMPARE(run.summary["reparameterized"]["centering"]["theta"], json::array({0.0}));
    QVERIFY(run.summary["reparameterized"]["pilot"]["gradient_evaluations"].get<int>() > 0);
    QVERIFY2(run.csv.contains("#         reparam = theta=0\n"), qPrintable(run.csv.left(2000)));
    QVERIFY(run.csv.contains("theta.1,theta.2") && !run.csv.contains("theta.z"));
    // As written, the same model's funnel defeats NUTS.
    const Run written =
        sample(kData + "reparam/eight_schools_centered.vmod", kEightSchools + "data.json", {"--reparam", "none"});
    QVERIFY2(divergent_share(written) > 0.005, qPrintable(QString::number(divergent_share(written))));
  }

  void centeredRadonMatchesTheNonCenteredForm() {
    const QString data = kProjects + "radon/data.json";
    const Run centered = sample(kData + "reparam/radon_centered.vmod", data);
    QVERIFY2(centered.exit_code == 0, qPrintable(centered.log));
    QVERIFY2(divergent_share(centered) <= 0.005, qPrintable(QString::number(divergent_share(centered))));
    const Run noncentered = sample(kProjects + "radon/radon.vmod", data);
    QVERIFY2(noncentered.exit_code == 0, qPrintable(noncentered.log));
    json reference;  // the non-centered model's summaries, its `a` as the centered one's
    for (const auto& [name, s] : noncentered.summary["parameters"].items()) {
      if (name.rfind("a_raw", 0) == 0 || name == "lp__") continue;
      reference[name] = s;
    }
    QVERIFY(reference.contains("a[85]") && reference.contains("sigma_a"));
    const QStringList failures =
        variate::testing::reference_mismatches(centered.summary["parameters"], reference, 4000);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
  }

  void groupsOfManyObservationsAreSampledAsWritten() {
    const QString model = kData + "reparam/strong_groups.vmod", data = kData + "reparam/strong_groups.json";
    const Run automatic = sample(model, data);
    QVERIFY2(automatic.exit_code == 0, qPrintable(automatic.log));
    QCOMPARE(automatic.summary["reparameterized"]["centering"]["theta"], json::array({1.0}));
    QVERIFY(automatic.log.contains("Reparameterizing theta: the first 150 warmup iterations"));
    const Run noncentered = sample(model, data, {"--reparam", "noncentered"});
    QVERIFY2(noncentered.exit_code == 0, qPrintable(noncentered.log));
    // Non-centered, each standardized mean is tied to mu and tau: far fewer effective draws.
    const auto ess_per_gradient = [](const Run& run) {
      return run.summary["parameters"]["tau"]["ess_bulk"].get<double>() /
             run.summary["sampler"]["gradient_evaluations"].get<double>();
    };
    QVERIFY2(ess_per_gradient(automatic) > 3 * ess_per_gradient(noncentered),
             qPrintable(QString("%1 vs %2").arg(ess_per_gradient(automatic)).arg(ess_per_gradient(noncentered))));
  }

  // The pilot and the centerings it decides are the same on any number of threads, and so
  // are the draws.
  void drawsDoNotDependOnThreads() {
    const QString model = kData + "reparam/strong_groups.vmod", data = kData + "reparam/strong_groups.json";
    const Run one = sample(model, data, {"--threads", "1", "--draws", "100"});
    const Run two = sample(model, data, {"--threads", "2", "--draws", "100"});
    QVERIFY2(one.exit_code == 0 && two.exit_code == 0, qPrintable(one.log + two.log));
    const auto rows = [](const QString& csv) {
      QStringList kept;
      for (const QString& line : csv.split('\n')) {
        if (!line.startsWith('#')) kept << line;
      }
      return kept;
    };
    QCOMPARE(rows(one.csv).size(), 102);  // the header row, 100 draws, the end
    QCOMPARE(rows(one.csv), rows(two.csv));
  }

  void givenCenteringsAreUsedAsGiven() {
    const Run run = sample(kData + "reparam/eight_schools_centered.vmod", kEightSchools + "data.json",
                           {"--reparam", "theta=0,0.5,1,0,0,0,0,0", "--draws", "200"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.log));
    QCOMPARE(run.summary["reparameterized"]["centering"]["theta"],
             json::array({0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0}));
    QVERIFY(!run.summary["reparameterized"].contains("pilot"));
    QVERIFY(run.csv.contains("reparam = theta=0,0.5,1,0,0,0,0,0\n"));
  }

  void refusesWhatCannotApply() {
    const QString model = kData + "reparam/eight_schools_centered.vmod", data = kEightSchools + "data.json";
    const Run not_candidate = sample(model, data, {"--reparam", "mu=0"});
    QCOMPARE(not_candidate.exit_code, 1);
    QVERIFY2(not_candidate.log.contains("cannot reparameterize 'mu': it is not a latent variable of a location-scale "
                                        "family whose location or scale depends on parameters"),
             qPrintable(not_candidate.log));
    const Run outside = sample(model, data, {"--reparam", "theta=1.5"});
    QVERIFY(outside.exit_code != 0);  // a usage error, as any option's bad value
    QVERIFY2(outside.log.contains("--reparam: theta's centering must be a number in [0, 1], got '1.5'"),
             qPrintable(outside.log));
  }
};

QTEST_GUILESS_MAIN(TestVariateReparam)
#include "tst_variate_reparam.moc"
