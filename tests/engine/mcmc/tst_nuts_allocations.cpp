// NUTS allocates nothing per transition: with the density on the tape, a transition
// (momentum, trajectory, tree building, the U-turn checks, step-size and metric learning
// during warmup) makes no call to operator new, counted by replacing it in this binary.

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

#include <QtTest/QtTest>

#include "engine/io/data_file.h"
#include "engine/mcmc/fisher_warmup.h"
#include "engine/mcmc/nuts.h"
#include "engine/mcmc/step_size_adaptation.h"
#include "engine/mcmc/windowed_adaptation.h"
#include "engine/model/compile.h"
#include "engine/tape/compiler/select_target.h"

namespace {

std::atomic<bool> counting{false};
std::atomic<long> allocations{0};

void* allocate(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}

// Allocations made while it lives, on any thread.
class AllocationCount {
 public:
  AllocationCount() {
    allocations = 0;
    counting = true;
  }
  ~AllocationCount() { counting = false; }
  long count() const { return allocations.load(); }
};

// The model file `model` of `folder` compiled with the folder's data.json.
variate::model::CompileResult compile(const std::string& folder, const std::string& model) {
  const auto data = variate::io::read_data_file(folder + "data.json");
  return variate::model::compile_model(
      variate::model::Source(folder + model, variate::io::read_text_file(folder + model)), &data);
}

// A chain's sampler on `target`, at 0.1 in every coordinate, its density evaluated there.
struct Chain {
  Chain(const variate::UnconstrainedTarget& target, variate::MetricKind kind, uint64_t seed)
      : d(static_cast<size_t>(target.dimension())),
        metric(kind, d),
        hamiltonian(variate::make_density_function(target), metric),
        nuts(hamiltonian, 10),
        random(variate::RandomStream::for_chain(seed, 0)) {
    point.q.assign(d, 0.1);
    point.p.assign(d, 0.0);
    hamiltonian.evaluate(point);
  }
  size_t d;
  variate::EuclideanMetric metric;
  variate::Hamiltonian hamiltonian;
  const variate::Nuts nuts;
  variate::RandomStream random;
  variate::PhasePoint point;
};

variate::model::CompileResult eight_schools() {
  return compile(QT_TESTCASE_SOURCEDIR "/../projects/eight_schools/", "eight_schools.vmod");
}

}  // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

class TestNutsAllocations : public QObject {
  Q_OBJECT

 private slots:
  void theCounterCounts() {
    AllocationCount count;
    auto* v = new std::vector<double>(10);
    delete v;
    QVERIFY(count.count() >= 2);
  }

  void transitionsAllocateNothing_data() {
    QTest::addColumn<QString>("metric");
    QTest::newRow("diag") << "diag";
    QTest::newRow("dense") << "dense";
  }
  void transitionsAllocateNothing() {
    QFETCH(QString, metric);
    const auto compiled = eight_schools();
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    const auto selected = variate::tape::select_target(*compiled.model, variate::tape::Backend::tape);
    QCOMPARE(QString::fromStdString(selected.target.backend()), QStringLiteral("tape"));

    const variate::MetricKind kind = metric == "dense" ? variate::MetricKind::dense : variate::MetricKind::diagonal;
    Chain chain(selected.target, kind, 11);
    const size_t d = chain.d;
    const variate::Nuts& nuts = chain.nuts;
    variate::RandomStream& random = chain.random;
    variate::PhasePoint& point = chain.point;
    variate::StepSizeAdaptation step_adaptation(0.8);
    step_adaptation.restart(0.5);
    variate::WindowedAdaptation metric_adaptation(kind, d, 1000);
    std::vector<double> inverse_metric(kind == variate::MetricKind::dense ? d * d : d);
    double step_size = 0.5;

    // The first transition sizes the sampler's buffers.
    nuts.one_step(point, step_size, random);
    long leapfrogs = 0;
    AllocationCount count;
    // Warmup's first 95 iterations: the fast interval (75) and into the first slow window
    // (25), without reaching a window's end (a new metric is estimated once per window).
    for (int iteration = 0; iteration < 95; ++iteration) {
      const variate::NutsResult stats = nuts.one_step(point, step_size, random);
      leapfrogs += stats.leapfrog_steps;
      step_size = step_adaptation.learn(stats.accept_stat);
      QVERIFY(!metric_adaptation.learn(point.q, inverse_metric));
    }
    for (int iteration = 0; iteration < 200; ++iteration) {
      leapfrogs += nuts.one_step(point, step_size, random).leapfrog_steps;
    }
    const long made = count.count();
    QVERIFY(leapfrogs > 295);
    QCOMPARE(made, 0L);
  }

  // The Fisher warmup estimates a metric after every transition: between its windows'
  // switches it allocates nothing either.
  void fisherWarmupAllocatesNothingWithinAWindow() {
    const auto compiled = eight_schools();
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    const auto selected = variate::tape::select_target(*compiled.model, variate::tape::Backend::tape);
    Chain chain(selected.target, variate::MetricKind::diagonal, 12);
    const variate::Nuts& nuts = chain.nuts;
    variate::RandomStream& random = chain.random;
    variate::PhasePoint& point = chain.point;
    const variate::NutsOptions options = variate::NutsOptions().adaptation(variate::Adaptation::fisher);
    variate::FisherWarmup warmup(options, chain.metric, chain.hamiltonian, random, false);
    double step_size = warmup.start(point, 1.0);
    // The early windows (100 transitions) and the first transitions of the first window
    // of 80, which sizes the estimates' buffers.
    int iteration = 0;
    for (; iteration < 110; ++iteration) {
      step_size = warmup.learn(iteration, point, nuts.one_step(point, step_size, random)).step_size;
    }
    long leapfrogs = 0;
    AllocationCount count;
    for (; iteration < 170; ++iteration) {
      const variate::NutsResult stats = nuts.one_step(point, step_size, random);
      leapfrogs += stats.leapfrog_steps;
      step_size = warmup.learn(iteration, point, stats).step_size;
    }
    const long made = count.count();
    QVERIFY(leapfrogs > 60);
    QCOMPARE(made, 0L);
  }

  // The recurrences unrolled on the tape (arma11's, hmm_example's rows of forward
  // variables with log_sum_exp_rows, its `target +=`) evaluate in the arena alone.
  void tapeGradientsAllocateNothing_data() {
    QTest::addColumn<QString>("posterior");
    QTest::newRow("arma11") << "arma-arma11";
    QTest::newRow("hmm_example") << "hmm_example-hmm_example";
  }
  void tapeGradientsAllocateNothing() {
    QFETCH(QString, posterior);
    const auto compiled =
        compile(QT_TESTCASE_SOURCEDIR "/data/reference/" + posterior.toStdString() + "/", "model.vmod");
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    const auto selected = variate::tape::select_target(*compiled.model, variate::tape::Backend::tape);
    QCOMPARE(QString::fromStdString(selected.target.backend()), QStringLiteral("tape"));
    const variate::DensityFunction density = variate::make_density_function(selected.target);
    const size_t d = static_cast<size_t>(selected.target.dimension());
    std::vector<double> q(d, 0.1);
    std::vector<double> gradient(d);
    density(q, gradient);  // the first call makes the thread's work memory
    AllocationCount count;
    double total = 0;
    for (int call = 0; call < 100; ++call) {
      q[call % d] += 0.01;
      total += density(q, gradient);
    }
    const long made = count.count();
    QVERIFY(std::isfinite(total));
    QCOMPARE(made, 0L);
  }
};

QTEST_APPLESS_MAIN(TestNutsAllocations)
#include "tst_nuts_allocations.moc"
