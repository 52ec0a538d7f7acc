// The Debian packages, made by cpack from this build as a release makes them: their
// fields and files, lintian's verdict, and the programs run from the packages' files
// unpacked into a folder (relocated: they find their library, examples and data relative
// to themselves). installer/test_fresh_root.sh installs them into a fresh Debian root.

#include <QDirIterator>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "tests/app/run_program.h"
#include "tests/support/sanitizer_build.h"

namespace {

using Result = app_test::Outcome;

Result run(const QString& program, const QStringList& arguments, int timeoutMs,
           const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
           const QString& workingDirectory = QString()) {
  return app_test::run_program(program, arguments, timeoutMs, environment, workingDirectory);
}

QString field(const QString& deb, const QString& name) {
  return run("dpkg-deb", {"-f", deb, name}, 30000).output.trimmed();
}

// The paths a package installs (files and links), without the leading "./".
QStringList contents(const QString& deb) {
  QStringList paths;
  for (const QString& line : run("dpkg-deb", {"-c", deb}, 30000).output.split('\n', Qt::SkipEmptyParts)) {
    if (line.startsWith('d')) continue;
    QString path = line.section(QRegularExpression("\\s+"), 5);
    path = path.section(" -> ", 0, 0).mid(2);
    paths << path;
  }
  return paths;
}

}  // namespace

class TestPackages : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    for (const char* tool : {"dpkg-deb", "dpkg-shlibdeps"}) {
      if (QStandardPaths::findExecutable(tool).isEmpty()) QSKIP(qPrintable(QString("%1 is not installed").arg(tool)));
    }
    QVERIFY(packagesDir_.isValid());
    const Result cpack = run(VARIATE_CPACK_COMMAND, {"-G", "DEB", "--config", VARIATE_BUILD_DIR "/CPackConfig.cmake",
                                                     "-B", packagesDir_.path()},
                             900000, QProcessEnvironment::systemEnvironment(), VARIATE_BUILD_DIR);
    QVERIFY2(cpack.exit_code == 0, qPrintable(cpack.output));
    runtime_ = packagesDir_.filePath("variate_" VARIATE_VERSION_STRING "_amd64.deb");
    development_ = packagesDir_.filePath("libvariate-dev_" VARIATE_VERSION_STRING "_amd64.deb");
    QVERIFY2(QFileInfo::exists(runtime_) && QFileInfo::exists(development_), qPrintable(cpack.output));
  }

  void theFieldsNameTheVersionAndTheDependencies() {
    QCOMPARE(field(runtime_, "Package"), QString("variate"));
    QCOMPARE(field(runtime_, "Version"), QString(VARIATE_VERSION_STRING));
    QCOMPARE(field(development_, "Package"), QString("libvariate-dev"));
    QCOMPARE(field(development_, "Version"), QString(VARIATE_VERSION_STRING));
    // From dpkg-shlibdeps: the libraries the programs link, with versions.
    const QString depends = field(runtime_, "Depends");
    for (const char* library : {"libtorch1.13", "libqt6widgets6", "libqt6svg6", "libsqlite3-0", "libopenblas0-pthread"}) {
      QVERIFY2(depends.contains(library), qPrintable(depends));
    }
    QVERIFY2(field(development_, "Depends").contains("variate (= " VARIATE_VERSION_STRING ")"),
             qPrintable(field(development_, "Depends")));
    // The synopsis is the package's own, not one line for both.
    QVERIFY(field(runtime_, "Description").section('\n', 0, 0) !=
            field(development_, "Description").section('\n', 0, 0));
  }

  void eachPackageHoldsItsFiles() {
    const QStringList runtime = contents(runtime_);
    const QStringList development = contents(development_);
    const QStringList runtimeFiles{
        "usr/bin/variate", "usr/bin/variate-studio", "usr/lib/libvariate.so.0.1", "usr/lib/variate/libvariate-commands.so",
        "usr/share/variate/projects/eight_schools/eight_schools.vmod",
        "usr/share/variate/projects/eight_schools/data.json", "usr/share/applications/org.variate.Studio.desktop",
        "usr/share/metainfo/org.variate.Studio.metainfo.xml", "usr/share/mime/packages/variate.xml",
        "usr/share/icons/hicolor/scalable/apps/org.variate.Studio.svg",
        "usr/share/icons/hicolor/48x48/apps/org.variate.Studio.png", "usr/share/man/man1/variate.1.gz",
        "usr/share/man/man1/variate-studio.1.gz", "usr/share/bash-completion/completions/variate",
        "usr/share/doc/variate/copyright", "usr/share/doc/variate/changelog.gz"};
    for (const QString& file : runtimeFiles) QVERIFY2(runtime.contains(file), qPrintable(file));
    const QStringList developmentFiles{
        "usr/include/variate/engine/variate.h", "usr/include/variate/engine/cli/exported_program.h", "usr/lib/libvariate.so",
        "usr/lib/libvariate_cli.a", "usr/lib/cmake/Variate/VariateConfig.cmake",
        "usr/lib/cmake/Variate/VariateTargets.cmake", "usr/share/doc/libvariate-dev/copyright"};
    for (const QString& file : developmentFiles) QVERIFY2(development.contains(file), qPrintable(file));
    for (const QString& file : runtime) QVERIFY2(!development.contains(file), qPrintable(file + " is in both"));
    // Build outputs the user never needs stay out: project files made from the examples.
    for (const QString& file : runtime) QVERIFY2(!file.endsWith(".variate"), qPrintable(file));
  }

  void lintianFindsNoErrors() {
    if (QStandardPaths::findExecutable("lintian").isEmpty()) QSKIP("lintian is not installed");
    const Result lintian = run("lintian", {runtime_, development_}, 600000);
    // Its warnings are listed and explained in installer/README.md.
    QVERIFY2(!QRegularExpression("^E: ", QRegularExpression::MultilineOption).match(lintian.output).hasMatch(),
             qPrintable(lintian.output));
    QVERIFY2(lintian.exit_code == 0, qPrintable(lintian.output));
  }

  void nothingPointsIntoTheBuildTree() {
    // Packages come from release builds; a sanitizer build's line tables (-g1, for the
    // reports' stacks) record the folder each object was compiled in: its build tree.
    if (test_support::kSanitizerBuild) QSKIP("a sanitizer build's line tables name its build tree");
    const QString root = unpack();
    QVERIFY(!root.isEmpty());
    const QByteArray buildDir = QByteArray(VARIATE_BUILD_DIR);
    QDirIterator files(root, QDir::Files | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (files.hasNext()) {
      QFile file(files.next());
      QVERIFY(file.open(QIODevice::ReadOnly));
      const QByteArray bytes = file.readAll();
      QVERIFY2(!bytes.contains(buildDir), qPrintable(file.fileName() + " names " + buildDir));
    }
  }

  // Unpacked anywhere, the programs find libvariate.so, the examples beside them, and
  // write the project made from an example to the user's documents, not into the
  // installation.
  void theUnpackedProgramsRunFromWhereTheyAre() {
    const QString root = unpack();
    QVERIFY(!root.isEmpty());
    QTemporaryDir home;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove("LD_LIBRARY_PATH");
    environment.insert("HOME", home.path());
    environment.insert("XDG_CONFIG_HOME", home.path() + "/.config");
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    const QString variate = root + "/usr/bin/variate";
    const Result version = run(variate, {"--version"}, 60000, environment);
    QCOMPARE(version.exit_code, 0);
    QVERIFY2(version.output.startsWith("variate " VARIATE_VERSION_STRING), qPrintable(version.output));

    const QString example = root + "/usr/share/variate/projects/eight_schools";
    const Result sample = run(variate, {"sample", example + "/eight_schools.vmod", "--data", example + "/data.json",
                                        "--chains", "2", "--warmup", "200", "--draws", "200", "--seed", "1",
                                        "--output", home.filePath("draws")},
                              300000, environment);
    QVERIFY2(sample.exit_code == 0, qPrintable(sample.output));
    QVERIFY(QFileInfo::exists(home.filePath("draws/chain_1.csv")));

    const QString shot = home.filePath("studio.png");
    const Result studio = run(root + "/usr/bin/variate-studio",
                              {example + "/eight_schools.vmod", "--run-on-open", "--warmup", "100", "--draws", "100",
                               "--seed", "2", "--screenshot", shot, "--quit-when-done"},
                              300000, environment);
    QVERIFY2(studio.exit_code == 0, qPrintable(studio.output));
    QVERIFY(QImage(shot).width() > 500);
    QVERIFY2(QFileInfo::exists(home.filePath("Documents/Variate/eight_schools.variate")), qPrintable(studio.output));
    const QStringList installed = QDir(example).entryList(QDir::Files);
    QCOMPARE(installed, (QStringList{"data.json", "eight_schools.vmod"}));
  }

 private:
  // The packages' files, unpacked once into a folder of this suite.
  QString unpack() {
    if (!unpacked_.isEmpty()) return unpacked_;
    const QString root = packagesDir_.filePath("root");
    for (const QString& deb : {runtime_, development_}) {
      const Result extract = run("dpkg-deb", {"-x", deb, root}, 120000);
      if (extract.exit_code != 0) {
        qWarning("%s", qPrintable(extract.output));
        return QString();
      }
    }
    return unpacked_ = root;
  }

  QTemporaryDir packagesDir_;
  QString runtime_;
  QString development_;
  QString unpacked_;
};

QTEST_GUILESS_MAIN(TestPackages)
#include "tst_packages.moc"
