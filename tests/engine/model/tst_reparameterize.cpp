// Partial non-centering (model/reparameterize.h): which variables it applies to, that the
// rewritten model is the same distribution of the user's variables (its density differs by
// the Jacobian exactly), that the tape and LibTorch agree on it, and that the draws name
// the user's variables in their places.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/core/argument_error.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/model/reparameterize.h"
#include "engine/tape/compiler/select_target.h"

namespace vt = variate;
namespace vm = variate::model;

namespace {

const char* const kCentered = R"(data J: int
data y: real[J]
data sigma: real[J]
mu ~ Normal(0, 5)
tau ~ HalfCauchy(5)
theta[J] ~ Normal(mu, tau)
y ~ Normal(theta, sigma)
)";

const char* const kData = R"({"J": 8, "y": [28, 8, -3, 7, -1, 1, 18, 12],
  "sigma": [15, 10, 16, 11, 9, 11, 10, 18]})";

vm::CompileResult compile(const std::string& text, const vm::Centering& centering = {}) {
  const vt::Data data = vt::io::parse_json_data(kData, "d.json");
  vm::CompileOptions options;
  options.centering = centering;
  vm::CompileResult result = vm::compile_model(vm::Source("m.vmod", text), &data, options);
  if (!result.ok()) qFatal("%s", result.report().c_str());
  return result;
}

at::Tensor point(std::initializer_list<double> values) { return at::tensor(std::vector<double>(values), at::kDouble); }

}  // namespace

class ReparameterizeTest : public QObject {
  Q_OBJECT

 private slots:
  void findsLocationScaleVariablesWhoseArgumentsReadParameters() {
    const char* text = R"(data J: int
data y: real[J]
data sigma: real[J]
mu ~ Normal(0, 5)
tau ~ HalfCauchy(5)
fixed[J] ~ Normal(0, 3)
a[J] ~ StudentT(3, mu, 2)
b[J] ~ Logistic(0, tau)
c: ordered[J] ~ Normal(mu, tau)
d[J] ~ Normal(mu, tau) T[0, ]
shift = mu + 1
e[J] ~ Cauchy(shift, 1)
f[J] ~ Gamma(tau, 1)
y ~ Normal(a + b + e + fixed, sigma)
)";
    const auto names = vm::location_scale_variables(*compile(text).checked);
    QCOMPARE(names, (std::vector<std::string>{"a", "b", "e"}));
  }

  void theRewrittenDensityDiffersByTheJacobianOnly() {
    const vm::CompiledModel original = *compile(kCentered).model;
    const std::vector<double> lambda{0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0, 0.3};
    for (const auto& centering : {std::vector<double>{0.0}, std::vector<double>{0.4}, lambda}) {
      const vm::CompiledModel rewritten = *compile(kCentered, {{"theta", centering}}).model;
      const vt::UnconstrainedTarget z_target = rewritten.target();
      const vt::UnconstrainedTarget u_target = original.target();
      const at::Tensor z = point({1.5, 0.7, -1.0, 0.3, 2.0, -0.4, 0.9, -2.2, 0.1, 1.1});
      // The user's theta at z, from the draw columns: mu, tau, theta[1..8].
      const std::vector<double> row = rewritten.draw_columns().rows(
          {std::vector<double>(z.data_ptr<double>(), z.data_ptr<double>() + z.numel())})[0];
      const double tau = row[1];
      QCOMPARE(tau, std::exp(0.7));
      std::vector<double> u{1.5, 0.7};
      double log_jacobian = 0;
      for (int i = 0; i < 8; ++i) {
        const double l = centering.size() == 1 ? centering[0] : centering[static_cast<size_t>(i)];
        const double zi = z[2 + i].item<double>();
        const double theta = 1.5 + std::pow(tau, 1 - l) * (zi - l * 1.5);
        QVERIFY(std::abs(row[2 + static_cast<size_t>(i)] - theta) < 1e-12);
        u.push_back(theta);
        log_jacobian += (1 - l) * std::log(tau);
      }
      const double lz = z_target.log_density(z).item<double>();
      const double lu = u_target.log_density(at::tensor(u, at::kDouble)).item<double>();
      QVERIFY2(std::abs(lz - (lu + log_jacobian)) < 1e-10,
               qPrintable(QString("%1 vs %2").arg(lz, 0, 'g', 15).arg(lu + log_jacobian, 0, 'g', 15)));
    }
  }

  void theTapeAgreesWithLibTorch() {
    const vm::CompiledModel model = *compile(kCentered, {{"theta", {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 1.0}}}).model;
    const vt::UnconstrainedTarget tape = vt::tape::select_target(model, vt::tape::Backend::tape).target;
    const vt::UnconstrainedTarget torch = vt::tape::select_target(model, vt::tape::Backend::torch).target;
    QCOMPARE(tape.backend(), std::string("tape"));
    const at::Tensor z = point({0.5, -0.2, -1.0, 0.3, 2.0, -0.4, 0.9, -2.2, 0.1, 1.1});
    const auto [tape_value, tape_gradient] = tape.log_density_and_gradient(z);
    const auto [torch_value, torch_gradient] = torch.log_density_and_gradient(z);
    QVERIFY(std::abs(tape_value.item<double>() - torch_value.item<double>()) < 1e-12);
    QVERIFY((tape_gradient - torch_gradient).abs().max().item<double>() < 1e-12);
  }

  void drawsNameTheUsersVariablesInTheirPlaces() {
    const auto names = [](const vm::CompiledModel& model) {
      return model.draw_columns().names(vt::NameStyle::StanCsv);
    };
    const vm::CompiledModel original = *compile(kCentered).model;
    const vm::CompiledModel rewritten = *compile(kCentered, {{"theta", {0.0}}}).model;
    QCOMPARE(names(rewritten), names(original));
    QCOMPARE(names(rewritten).at(2), std::string("theta.1"));
    QCOMPARE(rewritten.layout().parameters().at(2).name, vm::standardized_name("theta"));
  }

  void refusesWhatItCannotRewrite() {
    const auto refusal = [](const vm::Centering& centering) {
      try {
        compile(kCentered, centering);
      } catch (const vt::ArgumentError& e) {
        return std::string(e.what());
      }
      return std::string();
    };
    QVERIFY(refusal({{"mu", {0.0}}}).find("cannot reparameterize 'mu'") != std::string::npos);
    QVERIFY(refusal({{"nothing", {0.0}}}).find("cannot reparameterize 'nothing'") != std::string::npos);
    QVERIFY(refusal({{"theta", {1.5}}}).find("must lie in [0, 1]") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(ReparameterizeTest)
#include "tst_reparameterize.moc"
