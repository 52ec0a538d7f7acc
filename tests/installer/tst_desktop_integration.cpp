// The desktop integration as the tools that read it on a user's system see it: the desktop
// entry and the metainfo against their validators, the MIME types in a shared-mime-info
// database of their own, the rendered icons, the man pages through man, and the completion
// through bash. A check whose tool is not installed skips, naming the Debian package.
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Output {
  int exitCode = -1;
  QString out;
  QString err;
};

Output run(const QString& program, const QStringList& arguments,
           const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment()) {
  QProcess process;
  process.setProcessEnvironment(environment);
  process.start(program, arguments);
  if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit)
    return {-1, {}, program + " did not finish: " + process.errorString()};
  return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

// The names a CLI11 help lists under "Subcommands:".
QStringList subcommands(const QString& help) {
  const QRegularExpression section("^Subcommands:\\n((?:  \\S.*\\n)+)",
                                   QRegularExpression::MultilineOption);
  QStringList names;
  for (const QString& line : section.match(help).captured(1).split('\n', Qt::SkipEmptyParts))
    names << line.simplified().section(' ', 0, 0);
  return names;
}

// A man page as man renders it, with what it warned about.
Output renderManPage(const QString& page) {
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert("LC_ALL", "C.UTF-8");
  environment.insert("MANWIDTH", "200");  // wide enough that no entry's tag is broken
  return run("man", {"--warnings", "-l", page}, environment);
}

}  // namespace

class TestDesktopIntegration : public QObject {
  Q_OBJECT

  QTemporaryDir files_;
  QTemporaryDir mimeHome_;
  QString mimeUnavailable_;  // why the MIME database could not be built, if it could not
  QProcessEnvironment mimeEnvironment_ = QProcessEnvironment::systemEnvironment();

 private slots:
  void initTestCase() {
    QVERIFY(files_.isValid() && mimeHome_.isValid());
    // A project as the program writes it, and an SQLite file of some other application: the
    // same file with another application id in its header (bytes 68 to 71), and Variate's
    // where that application keeps its user version (60 to 63).
    const QString model = files_.filePath("tiny.vmod");
    QFile modelFile(model);
    QVERIFY(modelFile.open(QIODevice::WriteOnly));
    modelFile.write("mu ~ Normal(0, 1)\n");
    modelFile.close();
    const QString project = files_.filePath("tiny.variate");
    const Output sampled =
        run(VARIATE_PROGRAM, {"sample", model, "--project", project, "--chains", "1", "--warmup",
                              "10", "--draws", "10", "--quiet"});
    QVERIFY2(sampled.exitCode == 0, qPrintable(sampled.err));
    QVERIFY(QFile::copy(project, files_.filePath("renamed")));
    QVERIFY(QFile::copy(project, files_.filePath("other")));
    QFile other(files_.filePath("other"));
    QVERIFY(other.open(QIODevice::ReadWrite) && other.seek(60));
    other.write(
        "VRTE"
        "\0\0\0\0"
        "\0\0\0\0"
        "ABCD",
        16);
    other.close();

    // A database of shared-mime-info's own types and ours only, so that a copy of ours
    // installed on this system cannot stand in for the one under test.
    const QString base = QStandardPaths::locate(QStandardPaths::GenericDataLocation,
                                                "mime/packages/freedesktop.org.xml");
    if (base.isEmpty() || QStandardPaths::findExecutable("update-mime-database").isEmpty()) {
      mimeUnavailable_ = "shared-mime-info is not installed";
      return;
    }
    QVERIFY(QDir(mimeHome_.path()).mkpath("mime/packages"));
    QVERIFY(QFile::copy(base, mimeHome_.filePath("mime/packages/freedesktop.org.xml")));
    QVERIFY(QFile::copy(VARIATE_MIME_PACKAGE, mimeHome_.filePath("mime/packages/variate.xml")));
    mimeEnvironment_.insert("XDG_DATA_HOME", mimeHome_.path());
    mimeEnvironment_.insert("XDG_DATA_DIRS", mimeHome_.path());
    mimeEnvironment_.insert("PKGSYSTEM_ENABLE_FSYNC", "0");  // seconds saved on a scratch copy
    const Output updated =
        run("update-mime-database", {mimeHome_.filePath("mime")}, mimeEnvironment_);
    QVERIFY2(updated.exitCode == 0, qPrintable(updated.err));
    QCOMPARE(updated.err, QString());  // it warns of unknown elements and bad magic
  }

  void desktopEntryValidates() {
    if (QStandardPaths::findExecutable("desktop-file-validate").isEmpty())
      QSKIP("desktop-file-validate is not installed (desktop-file-utils)");
    const Output validated = run("desktop-file-validate", {VARIATE_DESKTOP_ENTRY});
    QCOMPARE(validated.out + validated.err, QString());  // not even a hint
    QCOMPARE(validated.exitCode, 0);
  }

  void metainfoValidates() {
    if (QStandardPaths::findExecutable("appstreamcli").isEmpty())
      QSKIP("appstreamcli is not installed (appstream)");
    const Output validated = run("appstreamcli", {"validate", "--no-net", VARIATE_METAINFO});
    const QRegularExpression problem("^[EW]: .*$", QRegularExpression::MultilineOption);
    QVERIFY2(!problem.match(validated.out).hasMatch(), qPrintable(validated.out));
    QVERIFY2(validated.exitCode == 0, qPrintable(validated.out + validated.err));
  }

  void mimeTypes_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("type");
    QTest::newRow("project") << "tiny.variate"
                             << "application/x-variate-project";
    QTest::newRow("project without its extension") << "renamed"
                                                   << "application/x-variate-project";
    QTest::newRow("SQLite file of another application") << "other"
                                                        << "application/vnd.sqlite3";
    QTest::newRow("model") << "tiny.vmod"
                           << "text/x-variate-model";
  }

  // By each tool installed that reads the database: GLib's (as GNOME and GTK do) and
  // File::MimeInfo's (as xdg-mime does outside GNOME and KDE).
  void mimeTypes() {
    QFETCH(QString, file);
    QFETCH(QString, type);
    if (!mimeUnavailable_.isEmpty()) QSKIP(qPrintable(mimeUnavailable_));
    const QString path = files_.filePath(file);
    int tools = 0;
    if (!QStandardPaths::findExecutable("gio").isEmpty()) {
      const Output info =
          run("gio", {"info", "-a", "standard::content-type", path}, mimeEnvironment_);
      QCOMPARE(info.out.section("standard::content-type: ", 1).trimmed(), type);
      ++tools;
    }
    if (!QStandardPaths::findExecutable("mimetype").isEmpty()) {
      QCOMPARE(run("mimetype", {"-b", path}, mimeEnvironment_).out.trimmed(), type);
      ++tools;
    }
    if (tools == 0) QSKIP("neither gio (libglib2.0-bin) nor mimetype (libfile-mimeinfo-perl)");
  }

  void icons_data() {
    QTest::addColumn<int>("size");
    for (const QString& size : QString(VARIATE_ICON_SIZES).split(' '))
      QTest::newRow(qPrintable(size + " px")) << size.toInt();
  }

  void icons() {
    QFETCH(int, size);
    const QString path =
        QString("%1/%2x%2/apps/org.variate.Studio.png").arg(VARIATE_ICONS_DIR).arg(size);
    const QImage icon(path);
    QVERIFY2(!icon.isNull(), qPrintable(path));
    QCOMPARE(icon.size(), QSize(size, size));
    QVERIFY(icon.hasAlphaChannel());
    QCOMPARE(qAlpha(icon.pixel(0, 0)), 0);  // the corners are cut round, not painted
    int opaque = 0;
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) opaque += qAlpha(icon.pixel(x, y)) == 255;
    QVERIFY2(opaque > size * size / 2, qPrintable(QString("%1 opaque pixels").arg(opaque)));
  }

  void manPages_data() {
    QTest::addColumn<QString>("page");
    QTest::newRow("variate") << VARIATE_MAN_DIR "/variate.1.gz";
    QTest::newRow("variate-studio") << VARIATE_MAN_DIR "/variate-studio.1.gz";
  }

  void manPages() {
    QFETCH(QString, page);
    QFile file(page);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(page));
    const QByteArray header = file.read(8);
    QVERIFY(header.startsWith("\x1f\x8b"));
    QCOMPARE(header[3] & 0x08, 0);                    // gzip -n: no file name
    QCOMPARE(header.mid(4, 4), QByteArray(4, '\0'));  // nor time stamp
    if (QStandardPaths::findExecutable("man").isEmpty()) QSKIP("man is not installed (man-db)");
    const Output rendered = renderManPage(page);
    QCOMPARE(rendered.err, QString());
    QCOMPARE(rendered.exitCode, 0);
    QVERIFY(rendered.out.contains("SYNOPSIS") && rendered.out.contains("OPTIONS"));
  }

  // The programs' help has no backslashes nor lines that troff would read as requests
  // today; a program standing in for them has.
  void manPageScriptEscapesTroff() {
    if (QStandardPaths::findExecutable("man").isEmpty()) QSKIP("man is not installed (man-db)");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString program = dir.filePath("fake");
    const QString help =
        "Usage: fake [OPTIONS] model\n\nOptions:\n"
        "  --path TEXT=C:\\vmod      Where the models are\n"
        "  --quote                  'quoted' and \\fBnot bold\\fR\n\n"
        ".vmod files are models\n'quoted' too\n";
    QFile script(program);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(("#!/bin/sh\ncat <<'EOF'\n" + help + "EOF\n").toUtf8());
    script.setPermissions(script.permissions() | QFile::ExeOwner);
    script.close();
    QFile page(dir.filePath("fake.1.in"));
    QVERIFY(page.open(QIODevice::WriteOnly));
    page.write(".TH FAKE 1 \"@DATE@\" \"@VERSION@\"\n.SH NAME\nfake \\- stands in\n@HELP@");
    page.close();
    const Output made =
        run(CMAKE_PROGRAM, {"-DPROGRAM=" + program, "-DNAME=fake", "-DTEMPLATE=" + page.fileName(),
                            "-DOUTPUT=" + dir.filePath("fake.1"), "-P", VARIATE_MAN_PAGE_SCRIPT});
    QVERIFY2(made.exitCode == 0, qPrintable(made.out + made.err));
    const Output rendered = renderManPage(dir.filePath("fake.1"));
    QCOMPARE(rendered.err, QString());
    for (const char* text : {"--path TEXT=C:\\vmod", "'quoted' and \\fBnot bold\\fR",
                             ".vmod files are models", "'quoted' too"})
      QVERIFY2(rendered.out.contains(text), qPrintable(rendered.out));
  }

  void manPageHasEverySubcommand() {
    if (QStandardPaths::findExecutable("man").isEmpty()) QSKIP("man is not installed (man-db)");
    const QStringList listed = subcommands(run(VARIATE_PROGRAM, {"--help"}).out);
    QVERIFY2(listed.contains("sample"), qPrintable(listed.join(' ')));
    const QString page = renderManPage(VARIATE_MAN_DIR "/variate.1.gz").out;
    for (const QString& name : listed) {
      const QRegularExpression heading("^ +variate " + name + "$",
                                       QRegularExpression::MultilineOption);
      QVERIFY2(heading.match(page).hasMatch(), qPrintable("no section for variate " + name));
    }
  }

  void manPageHasEveryStudioOption() {
    if (QStandardPaths::findExecutable("man").isEmpty()) QSKIP("man is not installed (man-db)");
    const Output help = run(VARIATE_STUDIO_PROGRAM, {"--help"});
    QVERIFY2(help.exitCode == 0, qPrintable(help.err));
    const QString page = renderManPage(VARIATE_MAN_DIR "/variate-studio.1.gz").out;
    const QRegularExpression option("^  .*?(--[a-z-]+)", QRegularExpression::MultilineOption);
    int options = 0;
    for (auto match = option.globalMatch(help.out); match.hasNext(); ++options) {
      const QString name = match.next().captured(1);
      QVERIFY2(page.contains(name), qPrintable("the page lacks " + name));
    }
    QVERIFY2(options > 10, qPrintable(help.out));
  }

  void bashCompletion_data() {
    QTest::addColumn<bool>("bashCompletion");
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<QStringList>("offered");
    for (const bool loaded : {false, true}) {
      const char* with = loaded ? " with bash-completion" : "";
      QTest::addRow("subcommand%s", with) << loaded << QStringList{"sa"} << QStringList{"sample"};
      QTest::addRow("option%s", with)
          << loaded << QStringList{"sample", "--ch"} << QStringList{"--chains"};
      QTest::addRow("choice%s", with)
          << loaded << QStringList{"sample", "--metric", "de"} << QStringList{"dense"};
    }
  }

  // As bash calls it on Tab: COMP_WORDS and COMP_CWORD set, the program named by its path.
  void bashCompletion() {
    QFETCH(bool, bashCompletion);
    QFETCH(QStringList, words);
    QFETCH(QStringList, offered);
    const QString library = "/usr/share/bash-completion/bash_completion";
    if (bashCompletion && !QFile::exists(library)) QSKIP("bash-completion is not installed");
    const QString script =
        "if [[ $1 == 1 ]]; then source " + library +
        "; fi\n"
        "source \"$2\"; shift 2\n"
        "COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMP_LINE=\"$*\"; COMP_POINT=${#COMP_LINE}\n"
        "_variate; printf '%s\\n' \"${COMPREPLY[@]}\"\n";
    const Output completed =
        run("bash", QStringList{"-c", script, "bash", bashCompletion ? "1" : "0",
                                VARIATE_BASH_COMPLETION, VARIATE_PROGRAM} +
                        words);
    QCOMPARE(completed.err, QString());
    QCOMPARE(completed.out.split('\n', Qt::SkipEmptyParts), offered);
  }
};

QTEST_GUILESS_MAIN(TestDesktopIntegration)
#include "tst_desktop_integration.moc"
