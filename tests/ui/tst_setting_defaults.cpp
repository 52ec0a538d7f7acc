// Every default is the same in the command line, the studio and the worker, because each
// front end shows the settings' descriptions: `variate COMMAND --help` gives every
// setting's flag with its default, the Run panel's fields show the defaults of a new
// project, and a worker accepts exactly the settings described as accepted, with the
// defaults a job starts from when none is given.

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QtTest/QtTest>

#include "engine/remote/request_checks.h"
#include "engine/services/setting_table.h"
#include "engine/services/settings.h"
#include "tests/app/run_program.h"
#include "tests/ui/studio_test_support.h"
#include "ui/app/main_window.h"
#include "ui/app/studio_docks.h"
#include "ui/docks/run_config_panel.h"

using namespace variate::ui;
namespace services = variate::services;

namespace {

// What a field shows, as the text its setting's default is written as ("" for none).
QString shown(QWidget* field) {
  if (auto* box = qobject_cast<QSpinBox*>(field)) {
    return box->value() == box->minimum() && !box->specialValueText().isEmpty() ? QString() : QString::number(box->value());
  }
  if (auto* check = qobject_cast<QCheckBox*>(field)) return check->isChecked() ? "true" : "false";
  if (auto* box = qobject_cast<QComboBox*>(field)) return box->currentText();
  if (auto* line = qobject_cast<QLineEdit*>(field)) return line->text();
  return "?";
}

QString expected(const services::SettingDescriptor& s) {
  return s.default_value ? QString::fromStdString(s.format(*s.default_value)) : QString();
}

}  // namespace

class TestSettingDefaults : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void theCommandLineShowsEveryDefault_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("method");
    QTest::newRow("sample") << "sample" << static_cast<int>(services::Method::nuts);
    QTest::newRow("fit") << "fit" << static_cast<int>(services::Method::advi);
    QTest::newRow("fit (training)") << "fit" << static_cast<int>(services::Method::amortized);
    QTest::newRow("optimize") << "optimize" << static_cast<int>(services::Method::optimize);
    QTest::newRow("pathfinder") << "pathfinder" << static_cast<int>(services::Method::pathfinder);
  }

  void theCommandLineShowsEveryDefault() {
    QFETCH(QString, command);
    QFETCH(int, method);
    const app_test::Outcome help = app_test::run_program(VARIATE_EXECUTABLE, {command, "--help"});
    QCOMPARE(help.exit_code, 0);
    const QString text = help.output.simplified();
    for (const services::SettingDescriptor* s : services::settings_of(static_cast<services::Method>(method))) {
      const bool on_by_default = s->kind == services::SettingKind::flag && s->default_value &&
                                 std::get<bool>(*s->default_value);
      const QString flag = QString::fromStdString(on_by_default ? s->negative_flag() : s->flag());
      QVERIFY2(text.contains(flag), qPrintable(command + " --help has no " + flag));
      if (s->kind == services::SettingKind::flag) continue;
      const QString line = QString::fromStdString(s->full_help()).simplified();
      QVERIFY2(text.contains("(default: " + QString::fromStdString(s->default_text()) + ")"),
               qPrintable(command + " --help lacks the default of " + flag));
      QVERIFY2(text.contains(line.left(40)), qPrintable(command + " --help lacks the help of " + flag));
    }
  }

  void theRunPanelShowsEveryDefault() {
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    QVERIFY2(window.openPath(studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"),
             qPrintable(window.lastError()));
    RunConfigPanel* panel = window.docks().runConfig;
    for (const services::Method method : {services::Method::nuts, services::Method::advi, services::Method::optimize,
                                          services::Method::pathfinder}) {
      QVERIFY(studio_test::choose(panel, "method", QString::fromUtf8(services::method_label(method))));
      for (const services::SettingDescriptor* s : services::settings_of(method)) {
        QWidget* field = panel->fieldOf(*s);
        QCOMPARE(field != nullptr, s->has(services::kInRunPanel));
        if (!field) continue;
        QVERIFY2(field->isVisibleTo(panel), s->name.c_str());
        QCOMPARE(shown(field), expected(*s));
        QVERIFY(field->toolTip().contains(QString::fromStdString(s->help).left(30)));
      }
    }
  }

  // The Adaptation row applies to a diagonal metric: a dense or low-rank one greys it out.
  void theAdaptationRowFollowsTheMetric() {
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    QVERIFY2(window.openPath(studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"),
             qPrintable(window.lastError()));
    RunConfigPanel* panel = window.docks().runConfig;
    QWidget* adapt = panel->fieldOf(services::setting::adapt.descriptor());
    QVERIFY(adapt && adapt->isEnabled());
    for (const auto& [metric, enabled] : {std::pair{"lowrank", false}, {"dense", false}, {"diag", true}}) {
      QVERIFY(studio_test::choose(panel, "metric", metric));
      QCOMPARE(adapt->isEnabled(), enabled);
    }
  }

  void aWorkerAcceptsTheDescribedSettings() {
    for (const services::Method method : {services::Method::nuts, services::Method::advi}) {
      for (const services::SettingDescriptor* s : services::settings_of(method)) {
        variate::remote::v1::SubmitRequest request;
        request.set_command(services::method_command(method));
        request.set_model_text("mu ~ Normal(0, 1)");
        request.add_arguments(s->flag());
        if (s->kind != services::SettingKind::flag && s->kind != services::SettingKind::tristate) {
          request.add_arguments(s->default_value ? s->format(*s->default_value) : "1");
        }
        const std::string problem = variate::remote::check_submit(request, 64);
        QVERIFY2(problem.empty() == s->has(services::kAcceptedByWorker), (s->flag() + ": " + problem).c_str());
      }
    }
    // A job given no options runs with the descriptions' defaults.
    services::Settings job;
    QCOMPARE(QString::fromStdString(job.read_arguments(services::Method::nuts, services::kAcceptedByWorker, {})), QString());
    QVERIFY(job == services::Settings());
  }
};

QTEST_MAIN(TestSettingDefaults)
#include "tst_setting_defaults.moc"
