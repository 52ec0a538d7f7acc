// model.h of an exported program: eight schools as committed in docs/export (it reads like
// docs/CPP_API.md's example), the C++ of each language feature, and located errors.

#include <QtTest/QtTest>

#include "engine/codegen/cpp_program.h"
#include "engine/codegen/model_header.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/model/model_error.h"

namespace cg = variate::codegen;
namespace vm = variate::model;

namespace {

vm::CompileResult checked(const std::string& path, const std::string& text) {
  vm::CompileResult result = vm::compile_model(vm::Source(path, text));
  if (!result.checked) qFatal("%s", result.report().c_str());
  return result;
}

QString header(const std::string& text, const std::string& name = "m") {
  const auto result = checked("m.vmod", text);
  return QString::fromStdString(cg::model_header(*result.checked, *result.source, name));
}

// A model with every constraint, a Mixture, multivariate families and reductions.
const char* const kFeatures = R"(data N: int
data K: int
data y: real[N]
data Y: real[N, K]
data Z: real[N, K]
data S: real[K, K]
data a: real[2]
data X: real[N, K]
w: simplex[2] ~ Dirichlet(a)
mu: ordered[2] ~ Normal(0, 5)
sigma ~ HalfNormal(1)
y ~ Mixture(w, Normal(mu, sigma))
m[K] ~ Normal(0, 1)
L: cholesky_corr[K] ~ LKJCorrCholesky(2)
Y ~ MultiNormal(m, S)
Z ~ MultiNormal(m, scale_tril = L)
p: positive_ordered[K] ~ Exponential(1)
new ~ Normal(sum(X @ m), 1)
c: real<lower=-sigma, upper=sigma>[2]
total = sum(m)
last = m[K] * K
)";

}  // namespace

class TestModelHeader : public QObject {
  Q_OBJECT

 private slots:
  void eightSchoolsIsTheCommittedExample() {
    const QString folder = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/eight_schools-eight_schools_noncentered/");
    QFile model(folder + "model.vmod");
    QVERIFY(model.open(QIODevice::ReadOnly));
    const auto result = checked("model.vmod", model.readAll().toStdString());
    const std::string generated = cg::model_header(*result.checked, *result.source, "eight_schools");
    QFile committed(QStringLiteral(QT_TESTCASE_SOURCEDIR "/../docs/export/eight_schools_model.h"));
    QVERIFY(committed.open(QIODevice::ReadOnly));
    // Regenerate with: variate export model.vmod --cpp DIR --name eight_schools
    QCOMPARE(QString::fromStdString(generated), QString::fromUtf8(committed.readAll()));
    // The lines of docs/CPP_API.md's example, as the generator writes them.
    for (const char* line : {"auto mu = vt::Normal(\"mu\", 0, 5);",
                             "auto tau = vt::HalfCauchy(\"tau\", 5);",
                             "auto theta_trans = vt::Normal(\"theta_trans\", 0, 1, {d.dim(\"J\")});",
                             "auto theta = vt::deterministic(\"theta\", theta_trans * tau + mu);",
                             "return vt::Normal(\"y\", theta, d[\"sigma\"]);",
                             "// theta = theta_trans * tau + mu"}) {
      QVERIFY2(generated.find(line) != std::string::npos, line);
    }
  }

  void features_data() {
    QTest::addColumn<QString>("line");
    QTest::newRow("simplex") << "auto w = vt::with_support(vt::Support::simplex(), [&] { return vt::Dirichlet(\"w\", d[\"a\"]); });";
    QTest::newRow("ordered, its size the sample shape") << "vt::with_support(vt::Support::ordered(), [&] { return vt::Normal(\"mu\", 0, 5, {2}); });";
    QTest::newRow("mixture component") << "vt::Mixture(\"y\", w, std::make_shared<vt::distributions::Normal>(mu, sigma), {d.dim(\"N\")});";
    QTest::newRow("indexed variable held as a tensor") << "at::Tensor m = vt::Normal(\"m\", 0, 1, {d.dim(\"K\")});";
    QTest::newRow("LKJ of the declared size") << "[&] { return vt::LKJCorrCholesky(\"L\", d.dim(\"K\"), 2); });";
    QTest::newRow("observed multivariate rows") << "vt::MultiNormal(\"Y\", m, d[\"S\"], {d.dim(\"N\")});";
    QTest::newRow("named parameterization") << "vt::MultiNormal(\"Z\", m, vt::scale_tril(L), {d.dim(\"N\")});";
    QTest::newRow("positive_ordered, a long line wrapped")
        << "auto p = vt::with_support(vt::Support::positive_ordered(),\n"
           "      [&] { return vt::Exponential(\"p\", 1, {d.dim(\"K\")}); });";
    QTest::newRow("C++ keyword renamed") << "vt::Normal(\"new\", vt::sum(vt::matmul(d[\"X\"], m)), 1);";
    QTest::newRow("matrix operand column-major") << "const at::Tensor X = vt::real_input(given, \"X\", {N, K}).t().contiguous().t();";
    QTest::newRow("data scalars first") << "const int64_t K = vt::int_input(given, \"K\");";
    QTest::newRow("unread quantity recorded") << "  vt::deterministic(\"total\", vt::sum(m));";
    QTest::newRow("index by a size") << "vt::deterministic(\"last\", m[d.dim(\"K\") - 1] * d.dim(\"K\"));";
    QTest::newRow("no value returned after a quantity") << "inline void m(const vt::Data& d) {";
    QTest::newRow("bounds computed where the variable is made")
        << "auto c = vt::with_support(vt::Support::interval(-sigma, sigma),\n      [&] { return vt::Flat(\"c\", {2}); });";
    QTest::newRow("constraints included") << "#include \"engine/core/with_support.h\"";
  }

  void features() {
    QFETCH(QString, line);
    const QString text = header(kFeatures);
    QVERIFY2(text.contains(line), qPrintable(text));
  }

  void keywordsAreRenamed() {
    const QString text = header("data N: int\ndata y: real[N]\nnew ~ Normal(0, 1)\nd ~ HalfNormal(1)\n"
                                "y ~ Normal(new, d)\n");
    QVERIFY(text.contains("auto new_ = vt::Normal(\"new\", 0, 1);"));
    QVERIFY(text.contains("auto d_ = vt::HalfNormal(\"d\", 1);"));
    QVERIFY(text.contains("return vt::Normal(\"y\", new_, d_, {d.dim(\"N\")});"));
  }

  // model.h keeps the text it came from, whole, in a raw string whose delimiter the text
  // does not hold.
  void theTextIsKeptVerbatim() {
    QVERIFY(header("x ~ Normal(0, 1)\n")
                .endsWith("inline constexpr const char* m_vmod = R\"vmod(x ~ Normal(0, 1)\n)vmod\";\n"));
    const std::string awkward = "# not )vmod\" nor )vmod1\"\nx ~ Normal(0, 1)\n";
    QVERIFY(header(awkward).endsWith("m_vmod = R\"vmod2(" + QString::fromStdString(awkward) + ")vmod2\";\n"));
  }

  void modelWithoutDataIgnoresItsArguments() {
    const QString text = header("x ~ Normal(0, 1)\n");
    QVERIFY(text.contains("inline vt::Data m_data([[maybe_unused]] const vt::Data& given) {\n"
                          "  return vt::Data();\n}"));
    QVERIFY(text.contains("inline vt::RandomVariable m([[maybe_unused]] const vt::Data& d) {"));
  }

  void transformedDataIsComputedOnce() {
    const QString text = header("data N: int\ndata k: int[N]\nM = N - 1\nhalf = 1 / 2\n"
                                "kr = k * 0.5\nmu ~ Normal(half, 1)\nk ~ Poisson(exp(mu) + M + kr)\n");
    QVERIFY(text.contains("const int64_t M = N - 1;"));
    QVERIFY(text.contains("const double half = 1.0 / 2;"));
    QVERIFY(text.contains("const at::Tensor kr = k.to(at::kDouble) * 0.5;"));
    QVERIFY(text.contains("auto mu = vt::Normal(\"mu\", d[\"half\"], 1);"));
    QVERIFY(text.contains("return vt::Poisson(\"k\", vt::exp(mu) + d.dim(\"M\") + d[\"kr\"]);"));
  }

  void statementsFollowDependencies() {
    // theta is used before its statement: the C++ computes it first.
    const QString text = header("data y: real[3]\ny ~ Normal(theta, 1)\ntheta = mu * 2\nmu ~ Normal(0, 1)\n");
    QVERIFY(text.indexOf("auto mu =") < text.indexOf("auto theta ="));
    QVERIFY(text.indexOf("auto theta =") < text.indexOf("return vt::Normal(\"y\""));
  }

  void errorsPointAtTheModel() {
    const std::string text = "data A: real[2, 2, 2]\nv[2] ~ Normal(0, 1)\nz = A @ v\n";
    const auto result = checked("m.vmod", text);
    try {
      cg::model_header(*result.checked, *result.source, "m");
      QFAIL("expected an error");
    } catch (const vm::ModelError& e) {
      QVERIFY2(QString(e.what()).contains("'@' multiplies matrices and vectors"), e.what());
      QCOMPARE(e.span().begin, text.find("A @ v"));
    }
  }

  void programHasItsFiles() {
    const auto result = checked("/models/eight-schools.vmod", "x ~ Normal(0, 1)\n");
    const cg::CppProgram program =
        cg::export_cpp_program(*result.checked, *result.source, cg::program_name("/models/eight-schools.vmod"));
    QCOMPARE(QString::fromStdString(program.name), QString("eight_schools"));
    QCOMPARE(program.files.size(), size_t{4});
    // main.cpp hands model.h's two functions to the command-line library, and does
    // nothing else: no options of its own, no copy of the commands.
    const QString main = QString::fromStdString(program.files.at("main.cpp"));
    QVERIFY2(!main.contains('@'), qPrintable(main));
    QVERIFY2(main.contains("#include \"engine/cli/exported_program.h\""), qPrintable(main));
    QVERIFY2(main.contains(
                 "return variate::cli::run_exported_program(\n"
                 "      argc, argv, {\"eight_schools\", \"eight-schools.vmod\", eight_schools_data, eight_schools, "
                 "eight_schools_vmod});"),
             qPrintable(main));
    QVERIFY2(main.count('\n') <= 30, qPrintable(main));
    for (const char* parsing : {"argv[", "--data", "std::string", "CLI::", "if ("}) {
      const QString code = main.section("#include", 1);  // after the comment at the top
      QVERIFY2(!code.contains(parsing), parsing);
    }
    const QString cmake = QString::fromStdString(program.files.at("CMakeLists.txt"));
    QVERIFY(cmake.contains("find_package(Variate"));
    QVERIFY2(cmake.contains("target_link_libraries(eight_schools PRIVATE Variate::cli)"), qPrintable(cmake));
    // A file name that is not a plain C++ string is quoted.
    const auto quoted = checked("/models/a\"b.vmod", "x ~ Normal(0, 1)\n");
    QVERIFY(QString::fromStdString(cg::export_cpp_program(*quoted.checked, *quoted.source, "m").files.at("main.cpp"))
                .contains("{\"m\", \"a\\\"b.vmod\", m_data, m, m_vmod}"));
    QCOMPARE(QString::fromStdString(cg::program_name("tests/data/reference/arK-arK/model.vmod")),
             QString("arK_arK"));
    QCOMPARE(QString::fromStdString(cg::program_name("3 schools.vmod")), QString("_3_schools"));

    QTemporaryDir directory;
    const std::string folder = directory.filePath("out/program").toStdString();
    cg::write_cpp_program(program, folder);
    for (const char* file : {"model.h", "main.cpp", "CMakeLists.txt", "README.md"}) {
      QVERIFY(QFileInfo::exists(QString::fromStdString(folder + "/" + file)));
    }
  }
};

QTEST_APPLESS_MAIN(TestModelHeader)
#include "tst_model_header.moc"
