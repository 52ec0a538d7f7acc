// The model language's functions for C++ models: each gives the bits the language gives
// (the same tensor operations), and bad arguments throw naming the function.

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/core/math.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"

namespace vt = variate;
namespace vm = variate::model;

namespace {

// Every function, applied to parameters (and data) in derived quantities.
const char* const kModel = R"(data N: int
data x: real[N]
data k: int[N]
v[N] ~ Normal(0, 1)
s[N] ~ HalfNormal(1)
q[N] ~ Beta(2, 2)
alpha ~ HalfNormal(1)
rho ~ HalfNormal(1)
r_exp = exp(v)
r_log = log(s)
r_log1p = log1p(s)
r_expm1 = expm1(v)
r_sqrt = sqrt(s)
r_square = square(v)
r_abs = abs(v)
r_inv_logit = inv_logit(v)
r_logit = logit(q)
r_softplus = softplus(v)
r_tanh = tanh(v)
r_lgamma = lgamma(s)
r_pow = v ^ 2
r_pow_real = s ^ 0.5
r_pow_base = 2 ^ v
r_sum = sum(v)
r_mean = mean(s)
r_dot = dot(v, x)
r_colmeans = colmeans(lags(v, 2))
r_cholesky = cholesky(gp_exp_quad_cov(x, alpha, rho) + 1e-10 * eye(N))
r_lags = lags(v, 3)
r_mixed = sum(k * 0.5) / N
)";

}  // namespace

class TestMath : public QObject {
  Q_OBJECT

 private slots:
  void sameBitsAsTheModelLanguage() {
    const vt::Data data = vt::io::parse_json_data(
        R"({"N": 6, "x": [-2, -1, 0, 0.5, 1.5, 3], "k": [1, 0, 4, 2, 2, 7]})", "d.json");
    const auto result = vm::compile_model(vm::Source("m.vmod", kModel), &data);
    QVERIFY2(result.ok(), result.report().c_str());
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor v = at::randn({6}, generator, at::kDouble);
    const at::Tensor s = at::rand({6}, generator, at::kDouble) + 0.1;
    const at::Tensor q = at::rand({6}, generator, at::kDouble) * 0.8 + 0.1;
    const at::Tensor alpha = at::scalar_tensor(1.3, at::kDouble);
    const at::Tensor rho = at::scalar_tensor(2.1, at::kDouble);
    const auto derived = result.model->derived(
        {{"v", v}, {"s", s}, {"q", q}, {"alpha", alpha}, {"rho", rho}});
    const at::Tensor x = data["x"].to(at::kDouble);
    const at::Tensor k = data["k"];
    const std::map<std::string, at::Tensor> expected = {
        {"r_exp", vt::exp(v)},
        {"r_log", vt::log(s)},
        {"r_log1p", vt::log1p(s)},
        {"r_expm1", vt::expm1(v)},
        {"r_sqrt", vt::sqrt(s)},
        {"r_square", vt::square(v)},
        {"r_abs", vt::abs(v)},
        {"r_inv_logit", vt::inv_logit(v)},
        {"r_logit", vt::logit(q)},
        {"r_softplus", vt::softplus(v)},
        {"r_tanh", vt::tanh(v)},
        {"r_lgamma", vt::lgamma(s)},
        {"r_pow", vt::pow(v, 2)},
        {"r_pow_real", vt::pow(s, 0.5)},
        {"r_pow_base", vt::pow(2, v)},
        {"r_sum", vt::sum(v)},
        {"r_mean", vt::mean(s)},
        {"r_dot", vt::dot(v, x)},
        {"r_colmeans", vt::colmeans(vt::lags(v, 2))},
        {"r_cholesky", vt::cholesky(vt::gp_exp_quad_cov(x, alpha, rho) + 1e-10 * vt::eye(6))},
        {"r_lags", vt::lags(v, 3)},
    };
    QCOMPARE(derived.size(), expected.size());
    for (const auto& [name, value] : expected) {
      const at::Tensor& got = derived.at(name);
      QVERIFY2(got.sizes() == value.sizes(), name.c_str());
      QVERIFY2(at::equal(got, value), name.c_str());  // bit for bit
    }
    // Data only: computed once when the data is bound.
    const at::Tensor mixed = result.model->data_values().at("r_mixed").tensor;
    QVERIFY(at::equal(mixed, vt::sum(k.to(at::kDouble) * 0.5) / 6));
  }

  void integerLagsStayIntegers() {
    const at::Tensor y = at::arange(1, 7, at::kLong);
    const at::Tensor lagged = vt::lags(y, 2);
    QCOMPARE(lagged.scalar_type(), at::kLong);
    QCOMPARE(lagged.sizes().vec(), (std::vector<int64_t>{4, 2}));
    QCOMPARE(lagged[0][0].item<int64_t>(), int64_t{2});  // y[3] given y[2], y[1]
    QCOMPARE(lagged[0][1].item<int64_t>(), int64_t{1});
  }

  void choleskyOfAnIndefiniteMatrix() {
    const at::Tensor m = at::tensor({1.0, 2.0, 2.0, 1.0}, at::kDouble).reshape({2, 2});
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::cholesky(m));
    vt::ValidationGuard sampling(false);  // as samplers evaluate: NaN, a divergence
    QVERIFY(at::isnan(vt::cholesky(m)).all().item<bool>());
  }

  void badArguments_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("message");
    QTest::newRow("dot of different lengths") << 0 << "dot: arguments must be vectors of one length";
    QTest::newRow("colmeans of a vector") << 1 << "colmeans: argument 'X' must be a matrix";
    QTest::newRow("eye of 0") << 2 << "eye: argument 'n' must be positive, got 0";
    QTest::newRow("cholesky of a vector") << 3 << "cholesky: argument 'M' must be a square matrix";
    QTest::newRow("gp of a matrix") << 4 << "gp_exp_quad_cov: arguments must be a vector x";
    QTest::newRow("lags too long") << 5 << "lags: argument 'K' must be between 1 and 2";
  }

  void badArguments() {
    QFETCH(int, which);
    QFETCH(QString, message);
    const at::Tensor v3 = at::zeros({3}, at::kDouble);
    try {
      switch (which) {
        case 0: vt::dot(v3, at::zeros({2}, at::kDouble)); break;
        case 1: vt::colmeans(v3); break;
        case 2: vt::eye(0); break;
        case 3: vt::cholesky(v3); break;
        case 4: vt::gp_exp_quad_cov(at::zeros({2, 2}, at::kDouble), 1.0, 1.0); break;
        default: vt::lags(v3, 3); break;
      }
      QFAIL("expected an ArgumentError");
    } catch (const vt::ArgumentError& e) {
      QVERIFY2(QString(e.what()).startsWith(message), e.what());
    }
  }
};

QTEST_APPLESS_MAIN(TestMath)
#include "tst_math.moc"
