// The example projects users open first: each model compiles with its data, and a batch
// of points evaluates as the single points do; a model with networks (fashion_vae) binds
// its training and held-out data and gives a finite ELBO.

#include <QtTest/QtTest>
#undef slots  // Qt's keyword breaks LibTorch's jit headers, which the nn modules include
#include "engine/deep/amortized_model.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"

namespace vm = variate::model;

class TestProjects : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void compiles_data() {
    QTest::addColumn<QString>("model");
    const QDir root(QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects"));
    int count = 0;
    for (const auto& folder : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
      for (const auto& file : QDir(root.filePath(folder)).entryList({"*.vmod"})) {
        QTest::newRow(qPrintable(folder + "/" + file)) << root.filePath(folder + "/" + file);
        ++count;
      }
    }
    QVERIFY(count >= 3);
  }
  void compiles() {
    QFETCH(QString, model);
    const std::string path = model.toStdString();
    const QDir folder = QFileInfo(model).dir();
    if (folder.exists("train.json")) {  // trained, not sampled
      const auto checked = vm::compile_model(vm::Source(path, variate::io::read_text_file(path)));
      QVERIFY2(checked.ok() && checked.checked->is_deep(), checked.report().c_str());
      variate::deep::AmortizedModel deep(checked.checked, variate::io::read_data_file(folder.filePath("train.json").toStdString()));
      deep.bind_heldout(variate::io::read_data_file(folder.filePath("test.json").toStdString()));
      QCOMPARE(deep.rows(), int64_t{60000});
      QCOMPARE(deep.heldout_rows(), int64_t{10000});
      const at::Tensor elbo = deep.row_elbo(at::arange(4, at::kLong), at::zeros({4, deep.noise_width()}), true);
      QVERIFY(at::isfinite(elbo).all().item<bool>());
      return;
    }
    const std::string data_path = QFileInfo(model).dir().filePath("data.json").toStdString();
    const auto data = variate::io::read_data_file(data_path);
    const auto result = vm::compile_model(vm::Source(path, variate::io::read_text_file(path)), &data);
    QVERIFY2(result.ok(), result.report().c_str());
    const auto target = result.model->target();
    at::manual_seed(5);
    const at::Tensor thetas = at::rand({3, target.dimension()}, at::kDouble) * 2 - 1;
    const at::Tensor batched = target.log_density(thetas);
    for (int64_t b = 0; b < 3; ++b) {
      const double single = target.log_density(thetas[b]).item<double>();
      QVERIFY(std::isfinite(single));
      QVERIFY(std::abs(single - batched[b].item<double>()) <= 1e-9 * std::max(1.0, std::abs(single)));
    }
  }
};

QTEST_APPLESS_MAIN(TestProjects)
#include "tst_projects.moc"
