// The run settings, each described once: every description's default passes its own
// check, a method's flags are unique, values read back from the text, JSON and arguments
// they are written as, bad values are refused naming the flag, and older configurations'
// keys are read.

#include <QtTest/QtTest>

#include <set>

#include "engine/core/argument_error.h"
#include "engine/services/setting_table.h"
#include "engine/services/settings.h"

namespace services = variate::services;
namespace setting = variate::services::setting;

class TestSettings : public QObject {
  Q_OBJECT

 private slots:
  void everyDefaultPassesItsCheck() {
    QVERIFY(services::all_settings().size() > 40);
    for (const services::SettingDescriptor* s : services::all_settings()) {
      QVERIFY2(!s->methods.empty(), s->name.c_str());
      QVERIFY2(!s->help.empty() && !s->label.empty(), s->name.c_str());
      if (s->default_value) {
        QCOMPARE(s->checked(*s->default_value), *s->default_value);
        QCOMPARE(s->parse(s->format(*s->default_value)), *s->default_value);
      } else {
        QVERIFY2(!s->none_means.empty(), s->name.c_str());
      }
    }
  }

  void aMethodsFlagsAreUnique() {
    for (const services::Method method : services::all_methods()) {
      std::set<std::string> flags, names;
      for (const services::SettingDescriptor* s : services::settings_of(method)) {
        QVERIFY2(flags.insert(s->flag()).second, (s->flag() + " twice").c_str());
        QVERIFY2(names.insert(s->name).second, (s->name + " twice").c_str());
      }
    }
  }

  void defaultsComeFromTheEngine() {
    const services::Settings settings;
    QCOMPARE(settings.get(setting::chains), 4);
    QCOMPARE(settings.get(setting::max_depth), 10);
    QCOMPARE(settings.get(setting::adapt_delta), 0.8);
    QCOMPARE(settings.get(setting::advi_iter), 10000);
    QCOMPARE(settings.get(setting::lbfgs_iter), 2000);
    QCOMPARE(settings.get(setting::path_iter), 1000);
    QCOMPARE(settings.get(setting::until_rhat), 1.01);
    QVERIFY(!settings.get(setting::seed));
    QVERIFY(!settings.get(setting::until_ess));
    QCOMPARE(settings.get(setting::jacobian), std::string("auto"));
  }

  void valuesAreChecked() {
    services::Settings settings;
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, settings.set(setting::max_depth, 31));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, settings.set(setting::adapt_delta, 0.0));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, settings.put_text(setting::metric.descriptor(), "unit"));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, settings.put_text(setting::init.descriptor(), "-1"));
    try {
      settings.put_text(setting::chains.descriptor(), "four");
      QFAIL("no error");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("--chains: expected a whole number, got 'four'"));
    }
    settings.put_text(setting::init.descriptor(), "pathfinder");
    QCOMPARE(settings.get(setting::init), std::string("pathfinder"));
    QCOMPARE(settings.get(setting::max_depth), 10);  // a refused value leaves the setting as it was
  }

  void jsonReadsBack() {
    services::Settings settings;
    settings.set(setting::max_depth, 5).set(setting::seed, std::optional<uint64_t>(18446744073709551615ull));
    settings.set(setting::eta, std::optional<double>(0.1));
    for (const services::Method method : services::all_methods()) {
      services::Settings read;
      read.read_json(method, settings.json(method));
      QCOMPARE(read.json(method), settings.json(method));
    }
    QCOMPARE(settings.json(services::Method::nuts)["max_depth"].get<int>(), 5);
    QVERIFY(settings.json(services::Method::nuts)["until_ess"].is_null());
  }

  void argumentsReadBack() {
    services::Settings settings;
    settings.set(setting::chains, 2).set(setting::metric, std::string("dense")).set(setting::batched_chains, true);
    settings.set(setting::newton, false).set(setting::jacobian, std::string("off"));
    for (const services::Method method : services::all_methods()) {
      services::Settings read;
      const std::vector<std::string> arguments = settings.arguments(method, services::kInRunPanel);
      QCOMPARE(QString::fromStdString(read.read_arguments(method, services::kInRunPanel, arguments)), QString());
      for (const services::SettingDescriptor* s : services::settings_of(method)) {
        if (s->has(services::kInRunPanel)) QVERIFY2(read.value_of(*s) == settings.value_of(*s), s->name.c_str());
      }
    }
    const auto arguments = settings.arguments(services::Method::optimize, services::kInRunPanel);
    QVERIFY(std::find(arguments.begin(), arguments.end(), "--no-newton") != arguments.end());
    QVERIFY(std::find(arguments.begin(), arguments.end(), "--no-jacobian") != arguments.end());
  }

  void aScopeLimitsTheArguments() {
    services::Settings settings;
    const std::string refused =
        settings.read_arguments(services::Method::nuts, services::kAcceptedByWorker, {"--until-ess", "100"});
    QCOMPARE(QString::fromStdString(refused), QString("the option '--until-ess' is not accepted"));
    QCOMPARE(QString::fromStdString(settings.read_arguments(services::Method::nuts, services::kAcceptedByWorker,
                                                            {"--max-depth=7"})),
             QString());
    QCOMPARE(settings.get(setting::max_depth), 7);
  }

  void olderConfigurationsAreRead() {
    services::Settings settings;
    std::vector<std::string> problems;
    settings.read_json(services::Method::advi,
                       nlohmann::json{{"iterations", 500}, {"seed", "12"}, {"eta", nullptr}, {"tol_rel_obj", "x"}},
                       &problems);
    QCOMPARE(settings.get(setting::advi_iter), 500);
    QCOMPARE(*settings.get(setting::seed), uint64_t{12});
    QCOMPARE(problems.size(), size_t{1});
    settings.read_json(services::Method::optimize, nlohmann::json{{"jacobian", true}});
    QCOMPARE(settings.get(setting::jacobian), std::string("on"));
  }

  void theJacobianFollowsTheLaplaceDraws() {
    services::Settings settings;
    QVERIFY(!services::uses_jacobian(settings));
    settings.set(setting::laplace_draws, 100);
    QVERIFY(services::uses_jacobian(settings));
    settings.set(setting::mle, true);
    QVERIFY(!services::uses_jacobian(settings));
    settings.set(setting::jacobian, std::string("on"));
    QVERIFY(services::uses_jacobian(settings));
  }
};

QTEST_APPLESS_MAIN(TestSettings)
#include "tst_settings.moc"
