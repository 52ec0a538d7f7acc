// A model compiled onto a device (CompileOptions::device) computes there and hands its
// results back on the CPU: its log density, gradient and derived quantities equal the CPU
// ones (1e-10 relative; a GPU's reductions round differently), on the models the project
// ships, in float64. Without a CUDA build of LibTorch only the CPU-as-a-device case runs
// (bench/device/check.sh runs this suite where there is a GPU).

#include <cmath>
#include <random>

#include <ATen/Context.h>
#include <QtTest/QtTest>

#include "engine/io/data_file.h"
#include "engine/model/compile.h"

namespace vm = variate::model;

namespace {

const QString kProjects = QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects/");

vm::CompileResult compile(const QString& folder, const QString& file, at::Device device) {
  const auto data = variate::io::read_data_file((kProjects + folder + "/data.json").toStdString());
  vm::CompileOptions options;
  options.device = device;
  const std::string path = (kProjects + folder + "/" + file).toStdString();
  return vm::compile_model(vm::Source(path, variate::io::read_text_file(path)), &data, options);
}

}  // namespace

class TestModelDevice : public QObject {
  Q_OBJECT

 private slots:
  void densityOnTheDeviceEqualsTheCpus_data() {
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("device");
    for (const QString device : {"cpu", "cuda"}) {
      QTest::newRow(qPrintable("eight_schools " + device)) << "eight_schools" << "eight_schools.vmod" << device;
      QTest::newRow(qPrintable("radon " + device)) << "radon" << "radon.vmod" << device;
      QTest::newRow(qPrintable("arsenic_wells " + device)) << "arsenic_wells" << "wells.vmod" << device;
    }
  }

  void densityOnTheDeviceEqualsTheCpus() {
    QFETCH(QString, folder);
    QFETCH(QString, file);
    QFETCH(QString, device);
    if (device == "cuda" && !at::hasCUDA()) QSKIP("this LibTorch build has no CUDA");
    const vm::CompileResult reference = compile(folder, file, at::kCPU);
    const vm::CompileResult placed = compile(folder, file, at::Device(device.toStdString()));
    QVERIFY2(placed.ok(), placed.report().c_str());
    const variate::UnconstrainedTarget cpu = reference.model->target();
    const variate::UnconstrainedTarget there = placed.model->target();
    QCOMPARE(there.device().str(), device.toStdString() == "cuda" ? std::string("cuda") : std::string("cpu"));
    std::mt19937_64 random(3);
    std::normal_distribution<double> normal;
    for (int point = 0; point < 5; ++point) {
      std::vector<double> q(cpu.dimension());
      for (double& x : q) x = normal(random);
      const at::Tensor theta = at::tensor(q, at::kDouble);
      const auto [lp_cpu, g_cpu] = cpu.log_density_and_gradient(theta);
      const auto [lp, g] = there.log_density_and_gradient(theta);
      QVERIFY(lp.device().is_cpu() && g.device().is_cpu());
      const double a = lp.item<double>();
      const double b = lp_cpu.item<double>();
      QVERIFY2(std::abs(a - b) <= 1e-10 * std::max(1.0, std::abs(b)), qPrintable(QString("%1 vs %2").arg(a).arg(b)));
      QVERIFY(at::allclose(g, g_cpu, 1e-10, 1e-10));
      // The batch path, as ADVI and batched chains use it.
      const at::Tensor batch = at::stack({theta, theta * 0.5});
      QVERIFY(at::allclose(there.log_density(batch), cpu.log_density(batch), 1e-10, 1e-10));
      // Derived quantities come back on the CPU.
      const auto columns = placed.model->draw_columns();
      const auto expected = reference.model->draw_columns();
      const auto got = columns.rows({q}).front();
      const auto want = expected.rows({q}).front();
      QCOMPARE(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        QVERIFY2(std::abs(got[i] - want[i]) <= 1e-10 * std::max(1.0, std::abs(want[i])), qPrintable(QString::number(i)));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestModelDevice)
#include "tst_model_device.moc"
