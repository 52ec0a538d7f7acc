// The README's quick start, run verbatim: the shell block between its "quick start"
// markers, extracted from README.md and run by bash in an empty folder with the built
// `variate` on the path, so that the README cannot drift from what the program does. The
// summary the README shows is held to the run's: its header line exactly, theta's row
// with its mean.

#include <QtTest/QtTest>

#include "tests/app/run_program.h"

using namespace app_test;

namespace {

const QString kReadme = QStringLiteral(QT_TESTCASE_SOURCEDIR "/../README.md");

QString read_text(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// The first ```sh block after `marker` and before `end`.
QString shell_block(const QString& text, const QString& marker, const QString& end) {
  const qsizetype from = text.indexOf(marker);
  const qsizetype to = text.indexOf(end, from);
  if (from < 0 || to < 0) return {};
  const QString part = text.mid(from, to - from);
  const qsizetype open = part.indexOf("```sh\n");
  const qsizetype close = part.indexOf("\n```", open + 6);
  if (open < 0 || close < 0) return {};
  return part.mid(open + 6, close - open - 6);
}

}  // namespace

class TestReadmeQuickStart : public QObject {
  Q_OBJECT

 private slots:
  void quickStartRunsAsWritten() {
    const QString readme = read_text(kReadme);
    const QString commands = shell_block(readme, "<!-- quick start -->", "<!-- /quick start -->");
    QVERIFY2(commands.contains("variate sample"), "README.md has no quick start between its markers");
    QTemporaryDir folder;
    const QString script = folder.filePath("quick_start.sh");
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(("set -euo pipefail\n" + commands + "\n").toUtf8());
    file.close();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("PATH", QFileInfo(VARIATE_EXECUTABLE).absolutePath() + ":" + environment.value("PATH"));
    const Outcome outcome = run_program("bash", {script}, 300000, environment, folder.path());
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));

    // What the README says the commands print.
    QVERIFY2(outcome.output.contains("theta (interval(0, 1))"), qPrintable(outcome.output));
    const QString header = "Inference for coin.vmod: 4 chains, each with 1000 warmup and 1000 draws; seed 1";
    QVERIFY2(readme.contains(header), "the README's summary lost its header line");
    QVERIFY2(outcome.output.contains(header), qPrintable(outcome.output));
    const QRegularExpression theta("\\ntheta +(0\\.[0-9]+) ");
    const QRegularExpressionMatch shown = theta.match(readme);
    const QRegularExpressionMatch ran = theta.match(outcome.output);
    QVERIFY2(shown.hasMatch() && ran.hasMatch(), qPrintable(outcome.output));
    QCOMPARE(ran.captured(1).left(4), shown.captured(1).left(4));  // the mean to two decimals
    QVERIFY2(std::abs(ran.captured(1).toDouble() - 0.25) < 0.02, qPrintable(outcome.output));  // Beta(3, 9)'s
    const QRegularExpressionMatch draws =
        QRegularExpression("\\nDraws: (first-model/)?(output/coin-[0-9-]+)/chain_1.csv to chain_4.csv\\n").match(outcome.output);
    QVERIFY2(draws.hasMatch(), qPrintable(outcome.output));
    QVERIFY(QFileInfo::exists(folder.filePath("first-model/" + draws.captured(2) + "/chain_4.csv")));
  }
};

QTEST_GUILESS_MAIN(TestReadmeQuickStart)
#include "tst_readme_quick_start.moc"
