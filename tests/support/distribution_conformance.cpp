#include "tests/support/distribution_conformance.h"

#include <QtTest/QtTest>

#include "tests/support/distribution_checks.h"

namespace variate::testing {
namespace {

template <typename Case>
std::vector<std::string> names(const std::vector<Case>& cases) {
  std::vector<std::string> result;
  for (const auto& c : cases) result.push_back(c.name);
  return result;
}

std::vector<std::string> one_row(const Family&) { return {"reference"}; }

std::vector<std::string> sample_rows(const Family& f) {
  std::vector<std::string> rows;
  for (const auto& member : sampled_members(f)) {
    rows.push_back(member.first + " (float64)");
    rows.push_back(member.first + " (float32)");
  }
  return rows;
}

}  // namespace

DistributionConformance::DistributionConformance(std::vector<Family> forms)
    : forms_(std::move(forms)) {}

void DistributionConformance::add_rows(
    const std::function<std::vector<std::string>(const Family&)>& names) {
  QTest::addColumn<int>("form");
  QTest::addColumn<int>("row");
  for (size_t f = 0; f < forms_.size(); ++f) {
    const std::string prefix = forms_.size() > 1 ? forms_[f].label + ": " : "";
    const std::vector<std::string> rows = names(forms_[f]);
    if (rows.empty()) {
      QTest::newRow((prefix + "not applicable").c_str()) << static_cast<int>(f) << -1;
    }
    for (size_t r = 0; r < rows.size(); ++r) {
      QTest::newRow((prefix + rows[r]).c_str()) << static_cast<int>(f) << static_cast<int>(r);
    }
  }
}

void DistributionConformance::run(const char* check,
                                  const std::function<std::string(const Family&, int)>& body) {
  QFETCH(int, form);
  QFETCH(int, row);
  const Family& f = forms_.at(form);
  if (row < 0) {
    const auto reason = f.not_applicable.find(check);
    if (reason == f.not_applicable.end()) {
      QFAIL(qPrintable(QString("%1 has no rows for %2 and no reason in not_applicable")
                           .arg(QString::fromStdString(f.name), check)));
    }
    QSKIP(reason->second.c_str());
  }
  std::string error;
  try {
    error = body(f, row);
  } catch (const std::exception& e) {
    error = std::string("threw: ") + e.what();
  }
  QVERIFY2(error.empty(), error.c_str());
}

void DistributionConformance::logProbMatchesReference_data() {
  add_rows([](const Family& f) { return names(f.densities); });
}
void DistributionConformance::logProbMatchesReference() {
  run("logProbMatchesReference",
      [](const Family& f, int row) { return check_density(f, f.densities.at(row)); });
}

void DistributionConformance::gradientsMatchFiniteDifferences_data() {
  add_rows([](const Family& f) { return names(f.gradients); });
}
void DistributionConformance::gradientsMatchFiniteDifferences() {
  run("gradientsMatchFiniteDifferences",
      [](const Family& f, int row) { return check_gradient(f, f.gradients.at(row)); });
}

void DistributionConformance::outsideSupportIsMinusInfinity_data() {
  add_rows([](const Family& f) { return names(f.outside); });
}
void DistributionConformance::outsideSupportIsMinusInfinity() {
  run("outsideSupportIsMinusInfinity",
      [](const Family& f, int row) { return check_outside(f, f.outside.at(row)); });
}

void DistributionConformance::outsideSupportHasZeroGradient_data() {
  add_rows([](const Family& f) { return names(f.outside); });
}
void DistributionConformance::outsideSupportHasZeroGradient() {
  QFETCH(int, form);
  QFETCH(int, row);
  if (row >= 0 && !is_finite_value(forms_.at(form).outside.at(row).value)) {
    QSKIP("a value that is not finite: its gradient is not checked (see the fixture's header)");
  }
  run("outsideSupportHasZeroGradient",
      [](const Family& f, int row) { return check_outside_gradient(f, f.outside.at(row)); });
}

void DistributionConformance::invalidArgumentsThrow_data() {
  add_rows([](const Family& f) { return names(f.invalid); });
}
void DistributionConformance::invalidArgumentsThrow() {
  run("invalidArgumentsThrow",
      [](const Family& f, int row) { return check_invalid(f, f.invalid.at(row)); });
}

void DistributionConformance::nanParametersThrow_data() {
  add_rows([](const Family& f) {
    std::vector<std::string> rows;
    for (const size_t i : nan_checked(f)) rows.push_back("nan " + f.parameters[i].name);
    return rows;
  });
}
void DistributionConformance::nanParametersThrow() {
  run("nanParametersThrow",
      [](const Family& f, int row) { return check_nan(f, nan_checked(f).at(row)); });
}

void DistributionConformance::shapesBroadcast_data() {
  add_rows([](const Family& f) { return names(f.shapes); });
}
void DistributionConformance::shapesBroadcast() {
  run("shapesBroadcast",
      [](const Family& f, int row) { return check_shapes(f, f.shapes.at(row)); });
}

void DistributionConformance::batchMatchesSingleEvaluations_data() {
  add_rows([](const Family& f) { return names(f.shapes); });
}
void DistributionConformance::batchMatchesSingleEvaluations() {
  run("batchMatchesSingleEvaluations",
      [](const Family& f, int row) { return check_batch(f, f.shapes.at(row)); });
}

void DistributionConformance::samplesHaveDtypeAndLieInSupport_data() { add_rows(sample_rows); }
void DistributionConformance::samplesHaveDtypeAndLieInSupport() {
  run("samplesHaveDtypeAndLieInSupport", [](const Family& f, int row) {
    const at::ScalarType dtype = row % 2 == 0 ? at::kDouble : at::kFloat;
    return check_samples(f, sampled_members(f).at(row / 2).second, dtype);
  });
}

void DistributionConformance::samplerMatchesMoments_data() {
  add_rows([](const Family& f) { return names(f.moments); });
}
void DistributionConformance::samplerMatchesMoments() {
  run("samplerMatchesMoments",
      [](const Family& f, int row) { return check_sampler_moments(f, f.moments.at(row)); });
}

void DistributionConformance::samplerFitsDistribution_data() {
  add_rows([](const Family& f) { return names(f.fits); });
}
void DistributionConformance::samplerFitsDistribution() {
  run("samplerFitsDistribution",
      [](const Family& f, int row) { return check_fit(f, f.fits.at(row)); });
}

void DistributionConformance::samplingIsReproducible_data() { add_rows(one_row); }
void DistributionConformance::samplingIsReproducible() {
  run("samplingIsReproducible", [](const Family& f, int) { return check_reproducible(f); });
}

void DistributionConformance::float32ParametersKeepFloat32_data() { add_rows(one_row); }
void DistributionConformance::float32ParametersKeepFloat32() {
  run("float32ParametersKeepFloat32", [](const Family& f, int) { return check_float32(f); });
}

void DistributionConformance::supportAndNameMatchHeader_data() { add_rows(one_row); }
void DistributionConformance::supportAndNameMatchHeader() {
  run("supportAndNameMatchHeader", [](const Family& f, int) { return check_support(f); });
}

void DistributionConformance::factoryBuildsRandomVariable_data() { add_rows(one_row); }
void DistributionConformance::factoryBuildsRandomVariable() {
  run("factoryBuildsRandomVariable", [](const Family& f, int) { return check_factory(f); });
}

}  // namespace variate::testing
