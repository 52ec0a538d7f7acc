#pragma once
/// Every model the project ships — the reference posteriors, the export round-trip model,
/// the example projects — with its data, for suites that check something on all of them.

#include <map>
#include <string>

#include <QDir>
#include <QString>

namespace variate::testing {

struct ShippedModel {
  std::string model;
  std::string data;
  std::string stan_points;  // Stan's log densities at reference points; "" when there are none
};

/// "reference/arK-arK", "projects/radon", ... -> files.
inline std::map<QString, ShippedModel> shipped_models() {
  std::map<QString, ShippedModel> models;
  const QString tests = QStringLiteral(QT_TESTCASE_SOURCEDIR);
  for (const QString& folder : {tests + "/data/reference", tests + "/data/export", tests + "/../projects"}) {
    const QDir root(folder);
    for (const auto& entry : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
      const QDir dir(root.filePath(entry));
      const QStringList vmods = dir.entryList({"*.vmod"}, QDir::Files);
      // projects/fashion_vae trains from IDX files (tests/app/tst_variate_deep covers it).
      if (vmods.isEmpty() || !dir.exists("data.json")) continue;
      ShippedModel files{dir.filePath(vmods.front()).toStdString(), dir.filePath("data.json").toStdString(), ""};
      if (dir.exists("stan_logdensity.json")) files.stan_points = dir.filePath("stan_logdensity.json").toStdString();
      models[root.dirName() + "/" + entry] = files;
    }
  }
  return models;
}

}  // namespace variate::testing
