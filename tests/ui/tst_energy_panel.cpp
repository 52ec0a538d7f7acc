// The Energy panel: the marginal energy distribution (centred per chain) against the
// energy transitions, from post-warmup iterations only, with each chain's E-BFMI named
// and the low ones flagged; an approximation's run has no energy to show.

#include <cmath>
#include <numeric>
#include <random>

#include <QLabel>
#include <QtTest/QtTest>

#include <qcustomplot.h>

#include "tests/ui/analysis_panel_fixture.h"
#include "ui/docks/energy_panel.h"

namespace services = variate::services;

using namespace variate::ui;
using analysis_test::Iterations;

namespace {

constexpr int kWarmup = 100;
constexpr int kDraws = 1000;

/// Chain 1's energy is independent normal draws (E-BFMI near 2), chain 2's a random walk
/// (E-BFMI near 0); warmup energies are far away and must not show.
std::vector<Iterations> chains() {
  std::vector<Iterations> out(2);
  std::mt19937 generator(3);
  std::normal_distribution<double> normal;
  double walk = 0;
  for (int i = 0; i < kWarmup + kDraws; ++i) {
    walk += 0.1 * normal(generator);
    for (int c = 0; c < 2; ++c) {
      SamplerRow stat;
      stat.energy = i < kWarmup ? 1e6 : c == 0 ? 10 + normal(generator) : 10 + walk;
      out[c].add({double(i)}, stat);
    }
  }
  return out;
}

/// Betancourt's E-BFMI: sum (E_i - E_{i-1})^2 / sum (E_i - mean)^2.
double naiveEbfmi(const Iterations& rows) {
  std::vector<double> e;
  for (int i = kWarmup; i < int(rows.stats.size()); ++i) e.push_back(rows.stats[i].energy);
  const double mean = std::accumulate(e.begin(), e.end(), 0.0) / double(e.size());
  double num = 0, den = 0;
  for (size_t i = 0; i < e.size(); ++i) {
    den += (e[i] - mean) * (e[i] - mean);
    if (i > 0) num += (e[i] - e[i - 1]) * (e[i] - e[i - 1]);
  }
  return num / den;
}

double total(QCPBars* bars) {
  double sum = 0;
  for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) sum += it->value;
  return sum;
}

}  // namespace

class TestEnergyPanel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void energyAgainstTransitions() {
    analysis_test::AnalysisFixture fixture;
    const std::vector<Iterations> draws = chains();
    fixture.addRun({"x"}, kWarmup, draws);
    EnergyPanel panel;
    QVERIFY(analysis_test::showOn(panel, fixture));
    QVERIFY(!panel.picker()->isVisible());  // the energy is the sampler's, not a parameter's

    QCPBars* energy = panel.bars("energy");
    QCPBars* transitions = panel.bars("transitions");
    QVERIFY(energy && transitions);
    QCOMPARE(energy->dataCount(), EnergyPanel::bins());
    QCOMPARE(total(energy), 2.0 * kDraws);              // every post-warmup iteration
    QCOMPARE(total(transitions), 2.0 * (kDraws - 1));   // every step between two of them
    // Warmup's energies (1e6) are left out: both histograms sit near 0.
    QVERIFY(energy->data()->at(EnergyPanel::bins() - 1)->key < 100);
    // Same bins for both, so their widths compare.
    QCOMPARE(energy->data()->at(0)->key, transitions->data()->at(0)->key);

    const std::vector<double> ebfmi = panel.ebfmiPerChain();
    QCOMPARE(int(ebfmi.size()), 2);
    for (int c = 0; c < 2; ++c) QVERIFY(std::abs(ebfmi[c] - naiveEbfmi(draws[c])) < 1e-9);
    QVERIFY(ebfmi[0] > 1.5);
    QVERIFY(ebfmi[1] < 0.3);
    const QString caption = panel.findChild<QLabel*>("energyCaption")->text();
    QVERIFY2(caption.contains(QString::number(ebfmi[0], 'f', 2)), qPrintable(caption));
    // Only the low E-BFMI is flagged.
    QCOMPARE(caption.count("#d50000"), 1);
    QVERIFY2(caption.contains(QString("#d50000'>%1").arg(ebfmi[1], 0, 'f', 2)), qPrintable(caption));

    QString error;
    QVERIFY2(analysis_test::exportsEveryFormat(panel, &error), qPrintable(error));
  }

  void liveIterationsJoin() {
    analysis_test::AnalysisFixture fixture;
    std::vector<Iterations> draws = chains();
    const qint64 id = fixture.addRun({"x"}, kWarmup, draws);
    EnergyPanel panel;
    QVERIFY(analysis_test::showOn(panel, fixture));
    QVERIFY(analysis_test::recomputesAfter(panel, [&] {
      for (int c = 0; c < 2; ++c) {
        Iterations more;
        for (int i = 0; i < 50; ++i) {
          SamplerRow stat;
          stat.energy = 10 + 0.01 * i;
          more.add({0.0}, stat);
        }
        fixture.appendLive(id, c, more);
      }
    }));
    QCOMPARE(total(panel.bars("energy")), 2.0 * (kDraws + 50));
  }

  void approximationsHaveNoEnergy() {
    analysis_test::AnalysisFixture fixture;
    fixture.addRun({"x"}, 0, chains(), services::Method::advi);
    EnergyPanel panel;
    QVERIFY(analysis_test::showOn(panel, fixture));
    QVERIFY(!panel.bars("energy"));
    QVERIFY(panel.findChild<QLabel*>("energyCaption")->text().contains("no sampler energy"));
  }
};

QTEST_MAIN(TestEnergyPanel)
#include "tst_energy_panel.moc"
