// The layers hold: the engine never depends on Qt; an engine file includes only headers of
// its own layer and the layers below it (the table engine/CMakeLists.txt declares, read
// from the build's engine_layers.txt, whose line "above: ..." names the libraries above
// every layer, engine/cli and engine/remote); every include names a real path from the
// repository root; and no folder of engine/, ui/ or app/ reaches itself through includes. The checks run on the repository's sources, and on small made-up trees
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
// The table's line of the libraries above every layer.
const QString kAbove = QStringLiteral("above");

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
// both relative to the repository root ("engine/core", "ui/document", "engine/cli").
struct Include {
  QString file;
  QString fromFolder;
  QString toFolder;
};

// Where the header an include names lives: its folder for a path from the repository
// root ("engine/core/shape.h") or from the including file's folder; nothing for a system
// or library header.
QString includedFolder(const QString& header, const QString& fromFolder, const QDir& root) {
  for (const QString& top : {"engine/", "ui/", "app/", "tests/"}) {
    if (header.startsWith(top) && root.exists(header)) return QFileInfo(header).path();
  }
  const QString local = fromFolder + "/" + header;
  if (root.exists(local)) return QFileInfo(local).path();
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

// The engine folder of the layer table that `folder` is in: its first two components, so
// that a layer folder's subfolders are its layer's ("engine/tape/ops" is "engine/tape").
QString layerFolder(const QString& folder) { return folder.section('/', 0, 1); }

// Engine includes that go up or sideways between layers ("engine/core/x.h includes
// engine/store"), and engine folders no layer owns.
QStringList layeringViolations(const std::vector<Include>& includes, const LayerTable& table) {
  std::map<QString, QString> layerOf;  // "engine/core" -> "core"
  std::set<QString> above;              // "engine/cli"
  for (const auto& [name, layer] : table) {
    for (const QString& folder : layer.folders) {
      if (name == kAbove) above.insert("engine/" + folder); else layerOf["engine/" + folder] = name;
    }
  }
  // Each layer with every layer below it.
  std::map<QString, std::set<QString>> reachable;
  for (const auto& [name, layer] : table) {
    if (name == kAbove) continue;
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
    if (!include.toFolder.startsWith("engine")) {  // ui or app: above the engine
      violations << include.file + " includes " + include.toFolder + ", which is above the engine";
      continue;
    }
    const QString fromFolder = layerFolder(include.fromFolder);
    const QString toFolder = layerFolder(include.toFolder);
    if (above.count(fromFolder)) continue;  // a library above the layers sees them all
    if (above.count(toFolder)) {
      violations << include.file + " includes " + include.toFolder + ", which is above every layer";
      continue;
    }
    const auto from = layerOf.find(fromFolder);
    if (from == layerOf.end()) {
      violations << include.file + ": its folder is in no layer of engine/CMakeLists.txt";
      continue;
    }
    if (include.toFolder == "engine") {
      violations << include.file + " includes engine/variate.h, which is above every layer";
      continue;
    }
    const auto to = layerOf.find(toFolder);
    if (to == layerOf.end()) {
      violations << include.file + " includes " + include.toFolder + ", which is in no layer";
    } else if (!reachable[from->second].count(to->second)) {
      violations << include.file + " (layer " + from->second + ") includes " + include.toFolder +
                        " (layer " + to->second + ")";
    }
  }
  return violations;
}

// Cycles in the graph of folders, each as "a -> b -> a". A layer's subfolders are folders
// of their own here, not their layer: the tape's program, ops, constrain, densities and
// compiler then include one another in one direction, and a cycle among them is reported
// as one between layers would be.
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

  // Every include of a header of the repository names it by a path from the repository
  // root, or from the including file's own folder: a file a reader can open.
  void includesAreRealPaths() {
    static const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s*\"([^\"]+)\""),
                                            QRegularExpression::MultilineOption);
    QStringList unresolved;
    for (const QString& top : {"engine", "ui", "app", "tests", "bench"}) {
      QDirIterator it(kRepository.filePath(top), {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
      while (it.hasNext()) {
        const QString path = it.next();
        if (path.contains("/fuzz/corpus/")) continue;
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        auto matches = include.globalMatch(QString::fromUtf8(file.readAll()));
        while (matches.hasNext()) {
          const QString header = matches.next().captured(1);
          if (header.endsWith(".moc") || header.endsWith(".pb.h") || header == "model.h") continue;
          if (!kRepository.exists(header) && !QFileInfo(path).dir().exists(header)) {
            unresolved << kRepository.relativeFilePath(path) + ": " + header;
          }
        }
      }
    }
    QVERIFY2(unresolved.isEmpty(), qPrintable(unresolved.join("\n")));
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
    const Tree tree({{"engine/core/a.h", "#include \"engine/store/b.h\"\n"},
                     {"engine/store/b.h", "#include \"engine/core/c.h\"\n"},
                     {"engine/core/c.h", "#include <vector>\n"}});
    const QStringList violations =
        layeringViolations(includesUnder(tree.root(), {"engine"}), readLayerTable(VARIATE_LAYER_TABLE));
    QCOMPARE(violations, QStringList{"engine/core/a.h (layer core) includes engine/store (layer store)"});
  }

  void aSubfolderIsInItsFoldersLayer() {
    const Tree tree({{"engine/tape/ops/a.h", "#include \"engine/store/b.h\"\n#include \"engine/model/c.h\"\n"},
                     {"engine/store/b.h", "#include <vector>\n"},
                     {"engine/model/c.h", "#include <vector>\n"}});
    const QStringList violations =
        layeringViolations(includesUnder(tree.root(), {"engine"}), readLayerTable(VARIATE_LAYER_TABLE));
    QCOMPARE(violations, QStringList{"engine/tape/ops/a.h (layer tape) includes engine/store (layer store)"});
  }

  void aCycleBetweenSubfoldersIsReported() {
    const Tree tree({{"engine/tape/ops/a.h", "#include \"engine/tape/densities/b.h\"\n"},
                     {"engine/tape/densities/b.h", "#include \"engine/tape/ops/a.h\"\n"}});
    const QStringList cycles = folderCycles(includesUnder(tree.root(), {"engine"}));
    QCOMPARE(cycles, QStringList{"engine/tape/densities -> engine/tape/ops -> engine/tape/densities"});
  }

  void anEngineFileIncludingTheCliIsReported() {
    const Tree tree({{"engine/io/a.h", "#include \"engine/cli/model_source.h\"\n"},
                     {"engine/cli/model_source.h", "#include \"engine/io/b.h\"\n"},
                     {"engine/io/b.h", "#include <vector>\n"}});
    const QStringList violations =
        layeringViolations(includesUnder(tree.root(), {"engine"}), readLayerTable(VARIATE_LAYER_TABLE));
    QCOMPARE(violations, QStringList{"engine/io/a.h includes engine/cli, which is above every layer"});
  }

  void aCycleBetweenFoldersIsReported() {
    const Tree tree({{"ui/document/a.h", "#include \"ui/engine/b.h\"\n"},
                     {"ui/engine/b.h", "#include \"ui/document/a.h\"\n#include \"c.h\"\n"},
                     {"ui/engine/c.h", "#include \"engine/core/d.h\"\n"}});
    const QStringList cycles = folderCycles(includesUnder(tree.root(), {"ui"}));
    QCOMPARE(cycles, QStringList{"ui/document -> ui/engine -> ui/document"});
  }
};

QTEST_GUILESS_MAIN(TestEngineLayering)
#include "tst_engine_layering.moc"
