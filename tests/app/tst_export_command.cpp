// `variate export MODEL.vmod --cpp DIR` as a user runs it: the four files, and every
// problem reported as `variate check` reports it (file:line:column), with exit code 1.

#include <QtTest/QtTest>

#include "tests/app/run_program.h"

using app_test::Outcome;

namespace {

Outcome run(const QStringList& arguments) { return app_test::run(arguments, 120000); }


QString write(const QTemporaryDir& directory, const QString& name, const QByteArray& text) {
  const QString path = directory.filePath(name);
  QFile file(path);
  file.open(QIODevice::WriteOnly);
  file.write(text);
  return path;
}

}  // namespace

class TestExportCommand : public QObject {
  Q_OBJECT

 private slots:
  void writesTheProgram() {
    QTemporaryDir directory;
    const QString model = write(directory, "eight-schools.vmod", "data J: int\ndata y: real[J]\n"
                                                                 "mu ~ Normal(0, 5)\ny ~ Normal(mu, 1)\n");
    const Outcome outcome = run({"export", model, "--cpp", directory.filePath("out")});
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    QVERIFY(outcome.output.contains("program eight_schools"));
    for (const char* file : {"model.h", "main.cpp", "CMakeLists.txt", "README.md"}) {
      QVERIFY2(QFileInfo::exists(directory.filePath(QString("out/") + file)), file);
    }
    QFile header(directory.filePath("out/model.h"));
    QVERIFY(header.open(QIODevice::ReadOnly));
    QVERIFY(header.readAll().contains("inline vt::RandomVariable eight_schools(const vt::Data& d) {"));
    QFile main(directory.filePath("out/main.cpp"));  // the commands come from Variate::cli
    QVERIFY(main.open(QIODevice::ReadOnly));
    QVERIFY(main.readAll().contains("return variate::cli::run_exported_program("));
  }

  void namesTheProgram() {
    QTemporaryDir directory;
    const QString model = write(directory, "m.vmod", "x ~ Normal(0, 1)\n");
    const Outcome outcome = run({"export", model, "--cpp", directory.filePath("out"), "--name", "my model"});
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    QVERIFY(outcome.output.contains("program my_model"));
  }

  void errors_data() {
    QTest::addColumn<QByteArray>("model");
    QTest::addColumn<QByteArray>("data");  // empty: no --data
    QTest::addColumn<QString>("message");
    QTest::newRow("syntax") << QByteArray("mu ~ Normal(0, 5\n") << QByteArray()
                            << "m.vmod:1:12: error: '(' was never closed";
    QTest::newRow("unknown name") << QByteArray("mu ~ Normal(nu, 5)\n") << QByteArray()
                                  << "m.vmod:1:13: error: undefined name 'nu'";
    QTest::newRow("rank the export rejects")
        << QByteArray("data A: real[2, 2, 2]\nv[2] ~ Normal(0, 1)\nz = A @ v\n") << QByteArray()
        << "m.vmod:3:5: error: '@' multiplies matrices and vectors";
    QTest::newRow("data that does not fit") << QByteArray("data J: int\ndata y: real[J]\ny ~ Normal(0, 1)\n")
                                            << QByteArray(R"({"J": 2, "y": [1, 2, 3]})")
                                            << "data 'y' has shape [3], expected [2]";
  }

  // Each addition to the language is written as C++ (the round trip runs them all).
  void additionsAreWritten_data() {
    QTest::addColumn<QByteArray>("model");
    QTest::addColumn<QString>("cpp");  // a line of model.h
    QTest::newRow("recurrence") << QByteArray(
                                       "data N: int\ndata y: real[N]\nmu ~ Normal(0, 1)\n"
                                       "m[1] = mu\nm[t] = 0.5 * m[t - 1] for t in 2:N\ny ~ Normal(m, 1)\n")
                                << "    m_elements.push_back(0.5 * m_elements[t - 2]);";
    QTest::newRow("target +=") << QByteArray("mu ~ Normal(0, 1)\ntarget += -square(mu)\n")
                               << "  vt::model::add_to_target(\"target[1]\", -vt::square(mu));";
    QTest::newRow("truncation") << QByteArray("mu ~ Normal(0, 1) T[0, ]\n")
                                << "  return vt::with_truncation(at::scalar_tensor(0, at::kLong).to(at::kDouble), "
                                   "at::Tensor(),";
    QTest::newRow("data bounds") << QByteArray("data s: real<lower=0>\nmu ~ Normal(0, s)\n")
                                 << "  vt::check_bound(\"s\", s, at::scalar_tensor(0, at::kLong), true, \"0\");";
    QTest::newRow("conditional") << QByteArray("mu ~ Normal(0, 1)\nnu ~ Normal(mu > 0 ? mu : 0, 1)\n")
                                 << "      at::scalar_tensor(0, at::kLong)), 1);";
  }

  void additionsAreWritten() {
    QFETCH(QByteArray, model);
    QFETCH(QString, cpp);
    QTemporaryDir directory;
    const Outcome outcome = run({"export", write(directory, "m.vmod", model), "--cpp", directory.filePath("out")});
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    QFile header(directory.filePath("out/model.h"));
    QVERIFY(header.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(header.readAll());
    QVERIFY2(text.split('\n').contains(cpp), qPrintable(text));
  }

  void errors() {
    QFETCH(QByteArray, model);
    QFETCH(QByteArray, data);
    QFETCH(QString, message);
    QTemporaryDir directory;
    QStringList arguments = {"export", write(directory, "m.vmod", model), "--cpp", directory.filePath("out")};
    if (!data.isEmpty()) arguments << "--data" << write(directory, "d.json", data);
    const Outcome outcome = run(arguments);
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains(message), qPrintable(outcome.output));
    QVERIFY(!QFileInfo::exists(directory.filePath("out/model.h")));
  }

  void needsAFolder() {
    QTemporaryDir directory;
    const Outcome outcome = run({"export", write(directory, "m.vmod", "x ~ Normal(0, 1)\n")});
    QVERIFY(outcome.exit_code != 0);
    QVERIFY2(outcome.output.contains("--cpp"), qPrintable(outcome.output));
  }

  void helpListsExport() {
    const Outcome outcome = run({"--help"});
    QVERIFY(outcome.output.contains("export"));
  }
};

QTEST_GUILESS_MAIN(TestExportCommand)
#include "tst_export_command.moc"
