// The layers hold: the engine never depends on Qt; an engine file includes only headers of
// its own layer and the layers below it (the table engine/CMakeLists.txt declares, read
// from the build's engine_layers.txt); and no folder of engine/, ui/ or app/ reaches itself
// through includes. The checks run on the repository's sources, and on small made-up trees
// that break each rule, to show that they can fail.

#include <QtTest/QtTest>

#include <functional>
#include <map>
#include <set>

namespace {

struct Layer {
  QStringList folders;
  QStringList depends;
};
using LayerTable = std::map<QString, Layer>;

// "core: core distributions bijectors | " per line.
LayerTable readLayerTable(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  LayerTable table;
  for (const QString& line : QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts)) {
    const QString name = line.section(':', 0, 0).trimmed();
    const QString rest = line.section(':', 1);
    table[name] = {rest.section('|', 0, 0).split(' ', Qt::SkipEmptyParts),
                   rest.section('|', 1).split(' ', Qt::SkipEmptyParts)};
  }
  return table;
}

// One include of one file: the folder it is in and the folder of the header it names,
// both relative to the repository root ("engine/core", "ui/document", "app/cli").
struct Include {
  QString file;
  QString fromFolder;
  QString toFolder;
};

// Where the header an include names lives, or nothing for a system or library header.
QString includedFolder(const QString& header, const QString& fromFolder, const QDir& root) {
  if (header.startsWith("variate/")) {
    const QString folder = header.section('/', 1, 1);
    if (header.count('/') < 2) return "engine";  // <variate/variate.h>
    return folder == "cli" ? "app/cli" : "engine/" + folder;
  }
  if (header.startsWith("ui/")) return header.section('/', 0, 1);
  const QString local = fromFolder + "/" + header;
  if (root.exists(local)) return QFileInfo(local).path();
  if (fromFolder.startsWith("app") && root.exists("app/" + header)) return QFileInfo("app/" + header).path();
  return {};
}

std::vector<Include> includesUnder(const QDir& root, const QStringList& tops) {
  static const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s*[<\"]([^>\"]+)[>\"]"),
                                          QRegularExpression::MultilineOption);
  static const QRegularExpression rawString(QStringLiteral("R\"([^(\\s]*)\\(.*?\\)\\1\""),
                                            QRegularExpression::DotMatchesEverythingOption);
  std::vector<Include> result;
  for (const QString& top : tops) {
    if (!root.exists(top)) continue;
    QDirIterator it(root.filePath(top), {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
      const QString path = it.next();
      const QString relative = root.relativeFilePath(path);
      const QString folder = QFileInfo(relative).path();
      QFile file(path);
      if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
      // Code inside raw string literals (the programs `variate export` writes) is not
      // this file's.
      QString text = QString::fromUtf8(file.readAll());
      text.remove(rawString);
      auto matches = include.globalMatch(text);
      while (matches.hasNext()) {
        const QString target = includedFolder(matches.next().captured(1), folder, root);
        if (!target.isEmpty()) result.push_back({relative, folder, target});
      }
    }
  }
  return result;
}

// Engine includes that go up or sideways between layers ("engine/core/x.h includes
// engine/store"), and engine folders no layer owns.
QStringList layeringViolations(const std::vector<Include>& includes, const LayerTable& table) {
  std::map<QString, QString> layerOf;  // "engine/core" -> "core"
  for (const auto& [name, layer] : table) {
    for (const QString& folder : layer.folders) layerOf["engine/" + folder] = name;
  }
  // Each layer with every layer below it.
  std::map<QString, std::set<QString>> reachable;
  for (const auto& [name, layer] : table) {
    std::vector<QString> stack = {name};
    while (!stack.empty()) {
      const QString next = stack.back();
      stack.pop_back();
      if (!reachable[name].insert(next).second) continue;
      for (const QString& dependency : table.at(next).depends) stack.push_back(dependency);
    }
  }
  QStringList violations;
  for (const Include& include : includes) {
    if (!include.fromFolder.startsWith("engine/")) continue;
    if (!include.toFolder.startsWith("engine")) {  // app/cli or ui: above the engine
      violations << include.file + " includes " + include.toFolder + ", which is above the engine";
      continue;
    }
    const auto from = layerOf.find(include.fromFolder);
    if (from == layerOf.end()) {
      violations << include.file + ": its folder is in no layer of engine/CMakeLists.txt";
      continue;
    }
    if (include.toFolder == "engine") {
      violations << include.file + " includes <variate/variate.h>, which is above every layer";
      continue;
    }
    const auto to = layerOf.find(include.toFolder);
    if (to == layerOf.end()) {
      violations << include.file + " includes " + include.toFolder + ", which is in no layer";
    } else if (!reachable[from->second].count(to->second)) {
      violations << include.file + " (layer " + from->second + ") includes " + include.toFolder +
                        " (layer " + to->second + ")";
    }
  }
  return violations;
}

// Cycles in the graph of folders, each as "a -> b -> a".
QStringList folderCycles(const std::vector<Include>& includes) {
  std::map<QString, std::set<QString>> edges;
  for (const Include& include : includes) {
    if (include.fromFolder != include.toFolder) edges[include.fromFolder].insert(include.toFolder);
  }
  QStringList cycles;
  std::map<QString, int> state;  // 1: on the current path, 2: done
  QStringList path;
  std::function<void(const QString&)> visit = [&](const QString& folder) {
    state[folder] = 1;
    path << folder;
    for (const QString& next : edges[folder]) {
      if (state[next] == 1) {
        cycles << (path.mid(path.indexOf(next)) + QStringList{next}).join(" -> ");
      } else if (state[next] == 0) {
        visit(next);
      }
    }
    path.removeLast();
    state[folder] = 2;
  };
  for (const auto& entry : edges) {
    if (state[entry.first] == 0) visit(entry.first);
  }
  return cycles;
}

// A throw-away tree of files: {"engine/core/a.h", "#include ..."}.
class Tree {
 public:
  explicit Tree(const std::map<QString, QString>& files) {
    for (const auto& [name, text] : files) {
      QDir(dir_.path()).mkpath(QFileInfo(name).path());
      QFile file(dir_.filePath(name));
      if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(name));
      file.write(text.toUtf8());
    }
  }
  QDir root() const { return QDir(dir_.path()); }

 private:
  QTemporaryDir dir_;
};

const QDir kRepository(QStringLiteral(QT_TESTCASE_SOURCEDIR "/.."));

}  // namespace

class TestEngineLayering : public QObject {
  Q_OBJECT

 private slots:
  void engineIncludesNoQtHeader() {
    const QDir engine(kRepository.filePath("engine"));
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

  void everyEngineFolderIsInALayer() {
    const LayerTable table = readLayerTable(VARIATE_LAYER_TABLE);
    QVERIFY(table.size() >= 5);
    std::set<QString> owned;
    for (const auto& entry : table) owned.insert(entry.second.folders.begin(), entry.second.folders.end());
    for (const QString& folder : QDir(kRepository.filePath("engine")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
      QVERIFY2(owned.count(folder), qPrintable("engine/" + folder + " is in no layer"));
    }
  }

  void engineIncludesGoDownTheLayers() {
    const auto includes = includesUnder(kRepository, {"engine"});
    QVERIFY(includes.size() > 100);
    const QStringList violations = layeringViolations(includes, readLayerTable(VARIATE_LAYER_TABLE));
    QVERIFY2(violations.isEmpty(), qPrintable(violations.join("\n")));
  }

  void noFolderIncludesItself() {
    const auto includes = includesUnder(kRepository, {"engine", "ui", "app"});
    const QStringList cycles = folderCycles(includes);
    QVERIFY2(cycles.isEmpty(), qPrintable(cycles.join("\n")));
  }

  // The checks themselves, on trees made to break them.
  void aWrongWayIncludeIsReported() {
    const Tree tree({{"engine/core/a.h", "#include \"variate/store/b.h\"\n"},
                     {"engine/store/b.h", "#include \"variate/core/c.h\"\n"},
                     {"engine/core/c.h", "#include <vector>\n"}});
    const QStringList violations =
        layeringViolations(includesUnder(tree.root(), {"engine"}), readLayerTable(VARIATE_LAYER_TABLE));
    QCOMPARE(violations, QStringList{"engine/core/a.h (layer core) includes engine/store (layer store)"});
  }

  void anEngineFileIncludingTheCliIsReported() {
    const Tree tree(std::map<QString, QString>{{"engine/io/a.h", "#include <variate/cli/model_source.h>\n"}});
    const QStringList violations =
        layeringViolations(includesUnder(tree.root(), {"engine"}), readLayerTable(VARIATE_LAYER_TABLE));
    QCOMPARE(violations, QStringList{"engine/io/a.h includes app/cli, which is above the engine"});
  }

  void aCycleBetweenFoldersIsReported() {
    const Tree tree({{"ui/document/a.h", "#include \"ui/engine/b.h\"\n"},
                     {"ui/engine/b.h", "#include \"ui/document/a.h\"\n#include \"c.h\"\n"},
                     {"ui/engine/c.h", "#include <variate/core/d.h>\n"}});
    const QStringList cycles = folderCycles(includesUnder(tree.root(), {"ui"}));
    QCOMPARE(cycles, QStringList{"ui/document -> ui/engine -> ui/document"});
  }
};

QTEST_GUILESS_MAIN(TestEngineLayering)
#include "tst_engine_layering.moc"
