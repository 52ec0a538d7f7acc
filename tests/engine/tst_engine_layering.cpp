// The engine never depends on Qt: no engine/ file may include a Qt header or use Qt types.

#include <QtTest/QtTest>

class TestEngineLayering : public QObject {
  Q_OBJECT

 private slots:
  void engineIncludesNoQtHeader() {
    const QDir engine(QStringLiteral(QT_TESTCASE_SOURCEDIR "/../engine"));
    QVERIFY2(engine.exists("core"), qPrintable(engine.absolutePath()));
    const QRegularExpression qt_include(
        QStringLiteral("#\\s*include\\s*[<\"](Q[A-Za-z]|qt|Qt)"));
    const QRegularExpression qt_type(QStringLiteral("\\b(QObject|QString|QVector|Q_OBJECT)\\b"));
    QStringList offenders;
    int files = 0;
    QDirIterator it(engine.absolutePath(), {"*.h", "*.cpp", "*.hpp", "*.in"}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
      const QString path = it.next();
      QFile file(path);
      QVERIFY(file.open(QIODevice::ReadOnly));
      const QString text = QString::fromUtf8(file.readAll());
      ++files;
      if (qt_include.match(text).hasMatch() || qt_type.match(text).hasMatch()) {
        offenders << engine.relativeFilePath(path);
      }
    }
    QVERIFY2(files > 10, "the engine sources were not found");
    QVERIFY2(offenders.isEmpty(), qPrintable("Qt used in: " + offenders.join(", ")));
  }
};

QTEST_GUILESS_MAIN(TestEngineLayering)
#include "tst_engine_layering.moc"
