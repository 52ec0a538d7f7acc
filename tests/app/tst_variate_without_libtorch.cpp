// `variate` loads LibTorch (about half a second) only for the commands that need it:
// `--version`, `summary`, and `loo` and `compare` of CSV files run without it; `sample`
// loads it, with its commands' library, on first use. The dynamic loader's own report (LD_DEBUG=libs) says which
// libraries a run initialised.

#include <QtTest/QtTest>

#include "tests/app/run_program.h"

namespace {

const QString kStanCsv = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/stan_csv/");

struct Loaded {
  int exit_code = -1;
  QString output;     // the program's own, without the loader's lines
  QStringList inits;  // the libraries the loader initialised, in order
};

Loaded run_watching_the_loader(const QStringList& arguments) {
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert("LD_DEBUG", "libs");
  const app_test::Outcome outcome = app_test::run_program(VARIATE_EXECUTABLE, arguments, 300000, environment);
  Loaded loaded{outcome.exit_code, {}, {}};
  static const QRegularExpression loader_line("^\\s*\\d+:\\s");
  static const QRegularExpression init("calling init: (\\S+)");
  for (const QString& line : outcome.output.split('\n')) {
    if (!loader_line.match(line).hasMatch()) {
      loaded.output += line + "\n";
    } else if (const auto match = init.match(line); match.hasMatch()) {
      loaded.inits << match.captured(1);
    }
  }
  return loaded;
}

bool any_libtorch(const QStringList& libraries) {
  for (const QString& library : libraries) {
    if (library.contains("libtorch") || library.contains("libc10")) return true;
  }
  return false;
}

}  // namespace

class TestVariateWithoutLibtorch : public QObject {
  Q_OBJECT

 private slots:
  void versionAndSummaryDoNotLoadLibTorch() {
    const Loaded version = run_watching_the_loader({"--version"});
    QCOMPARE(version.exit_code, 0);
    QVERIFY2(version.output.startsWith("variate " VARIATE_VERSION_STRING " (LibTorch "), qPrintable(version.output));
    QVERIFY2(!version.inits.isEmpty(), "LD_DEBUG=libs reported no library: the probe itself does not work");
    QVERIFY2(!any_libtorch(version.inits), qPrintable(version.inits.join('\n')));

    const Loaded summary = run_watching_the_loader({"summary", kStanCsv + "eight_schools_save_warmup.csv"});
    QVERIFY2(summary.exit_code == 0, qPrintable(summary.output));
    QVERIFY2(summary.output.contains("ESS_bulk"), qPrintable(summary.output));
    QVERIFY2(!any_libtorch(summary.inits), qPrintable(summary.inits.join('\n')));
  }

  // The probe can fail: a command that samples initialises LibTorch and the commands'
  // library. The PSIS-LOO of the files it wrote needs neither.
  void sampleLoadsLibTorchAndLooOfItsFilesDoesNot() {
    QTemporaryDir directory;
    const QString out = directory.filePath("out");
    const Loaded sample = run_watching_the_loader(
        {"sample", app_test::kEightSchools + "eight_schools.vmod", "--data", app_test::kEightSchools + "data.json",
         "--chains", "2", "--warmup", "100", "--draws", "100", "--seed", "1", "--predict", "--quiet", "--output", out});
    QVERIFY2(sample.exit_code == 0, qPrintable(sample.output));
    QVERIFY2(any_libtorch(sample.inits), qPrintable(sample.inits.join('\n')));
    QVERIFY2(sample.inits.filter("libvariate-commands.so").size() == 1, qPrintable(sample.inits.join('\n')));

    const Loaded loo = run_watching_the_loader({"loo", out + "/chain_1.csv", out + "/chain_2.csv"});
    QVERIFY2(loo.exit_code == 0, qPrintable(loo.output));
    QVERIFY2(loo.output.contains("Computed from 200 by 8 log-likelihood matrix"), qPrintable(loo.output));
    QVERIFY2(!any_libtorch(loo.inits), qPrintable(loo.inits.join('\n')));
    const Loaded compare = run_watching_the_loader({"compare", "first=" + out, "second=" + out});
    QVERIFY2(compare.exit_code == 0, qPrintable(compare.output));
    QVERIFY2(compare.output.contains("elpd_diff"), qPrintable(compare.output));
    QVERIFY2(!any_libtorch(compare.inits), qPrintable(compare.inits.join('\n')));
    // A project's runs may need their model: that command line goes to the commands' library.
    const Loaded project = run_watching_the_loader({"loo", "--project", directory.filePath("none.variate"), "--run", "x"});
    QVERIFY(project.exit_code != 0);
    QVERIFY2(any_libtorch(project.inits), qPrintable(project.inits.join('\n')));
  }

  // Both halves word their errors alike.
  void errorsReadTheSameOnEitherSide() {
    const Loaded summary = run_watching_the_loader({"summary", "/nonexistent/chain_1.csv"});
    QCOMPARE(summary.exit_code, 105);  // CLI11's code for a failed check
    QVERIFY2(summary.output.contains("File does not exist: /nonexistent/chain_1.csv"), qPrintable(summary.output));
    const Loaded sample = run_watching_the_loader({"sample", "/nonexistent/m.vmod"});
    QVERIFY2(sample.exit_code != 0, qPrintable(sample.output));
    QVERIFY2(sample.output.contains("/nonexistent/m.vmod"), qPrintable(sample.output));
  }
};

QTEST_GUILESS_MAIN(TestVariateWithoutLibtorch)
#include "tst_variate_without_libtorch.moc"
